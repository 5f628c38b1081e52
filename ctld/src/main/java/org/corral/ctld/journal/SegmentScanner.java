package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads one segment file and says how far it is intact. */
final class SegmentScanner {
  private SegmentScanner() {}

  /** How a segment ends. */
  enum Ending {
    /** Every byte belongs to an intact record. */
    CLEAN,
    /** Broken bytes at the end with no intact record after them: what a crash mid-write leaves. */
    TORN,
    /** Something wrong with intact data after it, a bad header, or a wrong index. */
    DAMAGED
  }

  /**
   * The intact part of a segment.
   *
   * @param entries intact records with index greater than the {@code keepAfter} given to scan
   * @param keptBytes framed size of those entries
   * @param lastIndex index of the last intact record ({@code baseIndex - 1} if none)
   * @param validEnd offset just past the last intact record (or the header); where damage starts
   * @param problem what is wrong at validEnd; null when CLEAN
   */
  record Scan(
      List<JournalEntry> entries,
      long keptBytes,
      long lastIndex,
      long validEnd,
      long size,
      Ending ending,
      String problem) {}

  /** Reads {@code file}, whose name says its first record is {@code baseIndex}. */
  static Scan scan(Path file, long baseIndex, long keepAfter) throws IOException {
    long size = Files.size(file);
    if (size > Integer.MAX_VALUE - 16) {
      return new Scan(
          List.of(), 0, baseIndex - 1, 0, size, Ending.DAMAGED, "segment too large to read");
    }
    byte[] bytes = Files.readAllBytes(file);
    int limit = bytes.length;
    if (limit < SegmentHeader.BYTES) {
      String problem =
          "incomplete segment header (" + limit + " of " + SegmentHeader.BYTES + " bytes)";
      return new Scan(List.of(), 0, baseIndex - 1, 0, limit, Ending.TORN, problem);
    }
    String headerProblem = SegmentHeader.problem(bytes, baseIndex);
    if (headerProblem != null) {
      return new Scan(List.of(), 0, baseIndex - 1, 0, limit, Ending.DAMAGED, headerProblem);
    }
    List<JournalEntry> entries = new ArrayList<>();
    long keptBytes = 0;
    long expected = baseIndex;
    int offset = SegmentHeader.BYTES;
    while (offset < limit) {
      RecordFrame.Decoded decoded = RecordFrame.decode(bytes, offset, limit);
      if (decoded instanceof RecordFrame.Broken broken) {
        long last = expected - 1;
        // A record is at least OVERHEAD bytes, which bounds how far the index can run on.
        long atMost = last + (limit - offset) / RecordFrame.OVERHEAD + 1;
        boolean torn = !RecordFrame.intactRecordWithin(bytes, offset + 1, limit, last, atMost);
        String problem =
            torn ? broken.problem() : broken.problem() + ", and intact records follow it";
        return new Scan(
            entries, keptBytes, last, offset, limit, torn ? Ending.TORN : Ending.DAMAGED, problem);
      }
      RecordFrame.Intact record = (RecordFrame.Intact) decoded;
      if (record.index() != expected) {
        String problem = "expected record index " + expected + " but found " + record.index();
        return new Scan(entries, keptBytes, expected - 1, offset, limit, Ending.DAMAGED, problem);
      }
      if (record.index() > keepAfter) {
        int from = record.payloadOffset();
        entries.add(
            new JournalEntry(
                record.index(), Arrays.copyOfRange(bytes, from, from + record.payloadLength())));
        keptBytes += RecordFrame.frameBytes(record.payloadLength());
      }
      expected++;
      offset = record.end();
    }
    return new Scan(entries, keptBytes, expected - 1, limit, limit, Ending.CLEAN, null);
  }
}
