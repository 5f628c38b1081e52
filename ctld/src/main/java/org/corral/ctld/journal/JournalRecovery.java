package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the newest intact snapshot and the intact records after it, then repairs the directory so
 * appending can continue: cuts a torn tail, and in {@link RecoveryMode#IGNORE_DAMAGE} sets damaged
 * data aside. Every decision is made before the first change, so STRICT mode throws with the
 * directory as it found it.
 */
final class JournalRecovery {
  /** What recovery found, and the segment appending may continue. */
  record Outcome(
      Recovery recovery,
      long lastIndex,
      long bytesSinceSnapshot,
      Optional<SegmentChainReader.Tail> tail) {}

  /** A snapshot that did not check, and where. */
  private record BadSnapshot(JournalFiles.Numbered file, long offset, String problem) {}

  /** The newest snapshot that checks (null if none), and the newer ones that did not. */
  private record SnapshotChoice(JournalFiles.Numbered chosen, byte[] state, List<BadSnapshot> bad) {
    long index() {
      return chosen == null ? 0 : chosen.index();
    }
  }

  private final Path dir;
  private final List<String> notes = new ArrayList<>();

  private JournalRecovery(Path dir) {
    this.dir = dir;
  }

  static Outcome recover(Path dir, RecoveryMode mode) throws IOException, JournalCorruptException {
    return new JournalRecovery(dir).run(mode);
  }

  private Outcome run(RecoveryMode mode) throws IOException, JournalCorruptException {
    SnapshotChoice snapshot = chooseSnapshot();
    SegmentChainReader.Result journal =
        SegmentChainReader.read(JournalFiles.segments(dir), snapshot.index());
    Optional<SegmentChainReader.Damage> damage =
        journal.damage().or(() -> lostWithSnapshot(snapshot, journal.lastIndex()));
    if (damage.isPresent() && mode == RecoveryMode.STRICT) {
      SegmentChainReader.Damage d = damage.get();
      String fallback = journal.damage().isPresent() ? fallbackNote(snapshot) : "";
      throw new JournalCorruptException(d.file(), d.offset(), d.problem() + fallback);
    }

    for (Path temp : JournalFiles.temporaryFiles(dir)) {
      Files.delete(temp);
      notes.add("journal: removed unfinished snapshot " + temp);
    }
    String recoveringFrom =
        snapshot.chosen() == null
            ? "the start of the journal"
            : "snapshot " + snapshot.chosen().path().getFileName();
    for (BadSnapshot bad : snapshot.bad()) {
      Path aside = JournalFiles.moveAside(bad.file().path());
      notes.add(
          String.format(
              "journal: snapshot %s is damaged at offset %d (%s); set aside as %s, recovering from"
                  + " %s",
              bad.file().path(), bad.offset(), bad.problem(), aside.getFileName(), recoveringFrom));
    }
    damage.ifPresent(
        d ->
            notes.add(
                String.format(
                    "journal: ignoring damage at %s:%d (%s); keeping records through index %d"
                        + " and setting the rest aside",
                    d.file(), d.offset(), d.problem(), journal.lastIndex())));
    for (SegmentChainReader.Repair repair : journal.repairs()) {
      apply(repair);
    }
    JournalFiles.syncDirectory(dir);
    Recovery recovery =
        new Recovery(
            Optional.ofNullable(snapshot.state()), snapshot.index(), journal.entries(), notes);
    return new Outcome(recovery, journal.lastIndex(), journal.keptBytes(), journal.tail());
  }

  private SnapshotChoice chooseSnapshot() throws IOException {
    List<JournalFiles.Numbered> snapshots = JournalFiles.snapshots(dir);
    List<BadSnapshot> bad = new ArrayList<>();
    for (int i = snapshots.size() - 1; i >= 0; i--) {
      JournalFiles.Numbered candidate = snapshots.get(i);
      switch (SnapshotFile.read(candidate.path(), candidate.index())) {
        case SnapshotFile.Loaded loaded -> {
          return new SnapshotChoice(candidate, loaded.state(), bad);
        }
        case SnapshotFile.Damaged damaged ->
            bad.add(new BadSnapshot(candidate, damaged.offset(), damaged.problem()));
      }
    }
    return new SnapshotChoice(null, null, bad);
  }

  /**
   * Falling back past a damaged snapshot is lossless only if the journal reaches the index that
   * snapshot covered; if it does not, the damaged snapshot is the damage.
   */
  private static Optional<SegmentChainReader.Damage> lostWithSnapshot(
      SnapshotChoice snapshot, long journalLastIndex) {
    if (snapshot.bad().isEmpty()) {
      return Optional.empty();
    }
    BadSnapshot newest = snapshot.bad().getFirst();
    if (journalLastIndex >= newest.file().index()) {
      return Optional.empty();
    }
    String problem =
        String.format(
            "%s, and the journal reaches only index %d without it, short of the %d it covers",
            newest.problem(), journalLastIndex, newest.file().index());
    return Optional.of(
        new SegmentChainReader.Damage(newest.file().path(), newest.offset(), problem));
  }

  private static String fallbackNote(SnapshotChoice snapshot) {
    if (snapshot.bad().isEmpty()) {
      return "";
    }
    BadSnapshot newest = snapshot.bad().getFirst();
    String to = snapshot.chosen() == null ? "no snapshot" : "snapshot index " + snapshot.index();
    return String.format(
        " (recovery fell back to %s because %s is damaged: %s)",
        to, newest.file().path(), newest.problem());
  }

  private void apply(SegmentChainReader.Repair repair) throws IOException {
    switch (repair) {
      case SegmentChainReader.CutTornTail cut -> {
        notes.add(
            String.format(
                "journal: cut torn tail at %s:%d (%d bytes)",
                cut.file(), cut.offset(), cut.bytes()));
        if (cut.offset() < SegmentHeader.BYTES) {
          Files.delete(cut.file());
        } else {
          truncate(cut.file(), cut.offset());
        }
      }
      case SegmentChainReader.CutDamage cut -> {
        Path copy = JournalFiles.copyAside(cut.file());
        truncate(cut.file(), cut.offset());
        notes.add(
            String.format(
                "journal: cut %s at offset %d; the whole file is kept as %s",
                cut.file(), cut.offset(), copy.getFileName()));
      }
      case SegmentChainReader.SetAside aside -> {
        Path moved = JournalFiles.moveAside(aside.file());
        notes.add("journal: set aside " + aside.file() + " as " + moved.getFileName());
      }
    }
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(size);
      channel.force(true);
    }
  }
}
