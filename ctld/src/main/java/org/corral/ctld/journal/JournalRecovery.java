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

  private final Path dir;
  private final List<String> notes = new ArrayList<>();

  private JournalRecovery(Path dir) {
    this.dir = dir;
  }

  static Outcome recover(Path dir, RecoveryMode mode) throws IOException, JournalCorruptException {
    return new JournalRecovery(dir).run(mode);
  }

  private Outcome run(RecoveryMode mode) throws IOException, JournalCorruptException {
    List<JournalFiles.Numbered> snapshots = JournalFiles.snapshots(dir);
    List<BadSnapshot> badSnapshots = new ArrayList<>();
    JournalFiles.Numbered chosen = null;
    byte[] state = null;
    for (int i = snapshots.size() - 1; i >= 0 && chosen == null; i--) {
      JournalFiles.Numbered candidate = snapshots.get(i);
      switch (SnapshotFile.read(candidate.path(), candidate.index())) {
        case SnapshotFile.Loaded loaded -> {
          chosen = candidate;
          state = loaded.state();
        }
        case SnapshotFile.Damaged damaged ->
            badSnapshots.add(new BadSnapshot(candidate, damaged.offset(), damaged.problem()));
      }
    }
    long snapshotIndex = chosen == null ? 0 : chosen.index();
    SegmentChainReader.Result journal =
        SegmentChainReader.read(JournalFiles.segments(dir), snapshotIndex);

    Optional<SegmentChainReader.Damage> damage = journal.damage();
    if (damage.isEmpty()
        && !badSnapshots.isEmpty()
        && journal.lastIndex() < badSnapshots.get(0).file().index()) {
      // Falling back to an older snapshot is only lossless if the journal reaches past the bad one.
      BadSnapshot newest = badSnapshots.get(0);
      damage =
          Optional.of(
              new SegmentChainReader.Damage(
                  newest.file().path(),
                  newest.offset(),
                  newest.problem()
                      + ", and the journal reaches only index "
                      + journal.lastIndex()
                      + " without it, short of the "
                      + newest.file().index()
                      + " it covers"));
    }
    if (damage.isPresent() && mode == RecoveryMode.STRICT) {
      SegmentChainReader.Damage d = damage.get();
      String why = journal.damage().isPresent() ? fallbackNote(badSnapshots, snapshotIndex) : "";
      throw new JournalCorruptException(d.file(), d.offset(), d.problem() + why);
    }

    for (Path temp : JournalFiles.temporaryFiles(dir)) {
      Files.delete(temp);
      notes.add("journal: removed unfinished snapshot " + temp);
    }
    for (BadSnapshot bad : badSnapshots) {
      Path aside = JournalFiles.moveAside(bad.file().path());
      notes.add(
          "journal: snapshot "
              + bad.file().path()
              + " is damaged at offset "
              + bad.offset()
              + " ("
              + bad.problem()
              + "); set aside as "
              + aside.getFileName()
              + ", recovering from "
              + (chosen == null
                  ? "the start of the journal"
                  : "snapshot " + chosen.path().getFileName()));
    }
    damage.ifPresent(
        d ->
            notes.add(
                "journal: ignoring damage at "
                    + d.file()
                    + ":"
                    + d.offset()
                    + " ("
                    + d.problem()
                    + "); keeping records through index "
                    + journal.lastIndex()
                    + " and setting the rest aside"));
    for (SegmentChainReader.Repair repair : journal.repairs()) {
      apply(repair);
    }
    JournalFiles.syncDirectory(dir);
    Recovery recovery =
        new Recovery(Optional.ofNullable(state), snapshotIndex, journal.entries(), notes);
    return new Outcome(recovery, journal.lastIndex(), journal.keptBytes(), journal.tail());
  }

  private void apply(SegmentChainReader.Repair repair) throws IOException {
    switch (repair) {
      case SegmentChainReader.CutTornTail cut -> {
        notes.add(
            "journal: cut torn tail at "
                + cut.file()
                + ":"
                + cut.offset()
                + " ("
                + cut.bytes()
                + " bytes)");
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
            "journal: cut "
                + cut.file()
                + " at offset "
                + cut.offset()
                + "; the whole file is kept as "
                + copy.getFileName());
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

  private static String fallbackNote(List<BadSnapshot> badSnapshots, long snapshotIndex) {
    if (badSnapshots.isEmpty()) {
      return "";
    }
    BadSnapshot newest = badSnapshots.get(0);
    return " (recovery fell back to "
        + (snapshotIndex == 0 ? "no snapshot" : "snapshot index " + snapshotIndex)
        + " because "
        + newest.file().path()
        + " is damaged: "
        + newest.problem()
        + ")";
  }
}
