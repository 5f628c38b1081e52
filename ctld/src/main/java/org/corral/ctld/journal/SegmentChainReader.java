package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the segments a recovery needs (those holding records after the snapshot), checks that the
 * indexes run on without a gap from file to file, and plans the repairs. It changes nothing on
 * disk, so STRICT recovery can refuse to start with the directory untouched.
 */
final class SegmentChainReader {
  private SegmentChainReader() {}

  /** Where the journal is damaged (not a torn tail). */
  record Damage(Path file, long offset, String problem) {}

  /** A change recovery makes on disk. */
  sealed interface Repair permits CutTornTail, CutDamage, SetAside {}

  /**
   * Truncate a torn tail at {@code offset} ({@code bytes} long); below a header, remove the file.
   */
  record CutTornTail(Path file, long offset, long bytes) implements Repair {}

  /** Keep a copy of the file aside, then truncate it at {@code offset} (past its header). */
  record CutDamage(Path file, long offset) implements Repair {}

  /** Rename the whole file aside. */
  record SetAside(Path file) implements Repair {}

  /** The last segment left after the repairs, which appending may continue if indexes line up. */
  record Tail(Path file, long baseIndex, long nextIndex, long size) {}

  /**
   * @param entries intact records after the snapshot, up to the damage if any
   * @param lastIndex the last index recovered: the snapshot's, or a later intact record's
   * @param keptBytes framed size of entries
   */
  record Result(
      List<JournalEntry> entries,
      long lastIndex,
      long keptBytes,
      Optional<Damage> damage,
      List<Repair> repairs,
      Optional<Tail> tail) {}

  /** Reads {@code segments} (oldest first) for the records after {@code snapshotIndex}. */
  static Result read(List<JournalFiles.Numbered> segments, long snapshotIndex) throws IOException {
    List<JournalEntry> entries = new ArrayList<>();
    List<Repair> repairs = new ArrayList<>();
    long keptBytes = 0;
    long lastIndex = snapshotIndex;
    Damage damage = null;
    Tail tail = null;
    // Segments whose successor starts by snapshotIndex + 1 hold nothing recovery needs.
    int first = 0;
    for (int i = 0; i < segments.size(); i++) {
      if (segments.get(i).index() <= snapshotIndex + 1) {
        first = i;
      }
    }
    long previousLast = -1;
    for (int i = first; i < segments.size() && damage == null; i++) {
      JournalFiles.Numbered segment = segments.get(i);
      Path file = segment.path();
      String gap = gapBefore(segment.index(), i == first, snapshotIndex, previousLast);
      if (gap != null) {
        damage = new Damage(file, 0, gap);
        setAsideFrom(segments, i, repairs);
        break;
      }
      SegmentScanner.Scan scan = SegmentScanner.scan(file, segment.index(), snapshotIndex);
      entries.addAll(scan.entries());
      keptBytes += scan.keptBytes();
      lastIndex = Math.max(lastIndex, scan.lastIndex());
      previousLast = scan.lastIndex();
      boolean lastSegment = i == segments.size() - 1;
      tail =
          scan.validEnd() < SegmentHeader.BYTES
              ? null
              : new Tail(file, segment.index(), scan.lastIndex() + 1, scan.validEnd());
      switch (scan.ending()) {
        case CLEAN -> {}
        case TORN -> {
          if (lastSegment) {
            repairs.add(new CutTornTail(file, scan.validEnd(), scan.size() - scan.validEnd()));
          } else {
            damage =
                new Damage(
                    file,
                    scan.validEnd(),
                    scan.problem() + " in a segment that later segments follow");
          }
        }
        case DAMAGED -> damage = new Damage(file, scan.validEnd(), scan.problem());
      }
      if (damage != null) {
        repairs.add(
            scan.validEnd() < SegmentHeader.BYTES
                ? new SetAside(file)
                : new CutDamage(file, scan.validEnd()));
        setAsideFrom(segments, i + 1, repairs);
      }
    }
    return new Result(
        entries,
        lastIndex,
        keptBytes,
        Optional.ofNullable(damage),
        repairs,
        Optional.ofNullable(tail));
  }

  /** Why a segment starting at {@code base} does not continue the records before it, or null. */
  private static String gapBefore(long base, boolean first, long snapshotIndex, long previousLast) {
    if (first && base > snapshotIndex + 1) {
      return "the journal starts at index "
          + base
          + " but recovery needs index "
          + (snapshotIndex + 1)
          + (snapshotIndex == 0
              ? " (there is no usable snapshot)"
              : " (the first after snapshot index " + snapshotIndex + ")");
    }
    if (!first && base != previousLast + 1) {
      return "segment starts at index "
          + base
          + " but the previous segment ends at index "
          + previousLast;
    }
    return null;
  }

  private static void setAsideFrom(
      List<JournalFiles.Numbered> segments, int from, List<Repair> repairs) {
    for (int j = from; j < segments.size(); j++) {
      repairs.add(new SetAside(segments.get(j).path()));
    }
  }
}
