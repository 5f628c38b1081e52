package org.corral.ctld.journal;

/**
 * Tuning for a {@link Journal}.
 *
 * @param maxSegmentBytes a segment file is closed and a new one started once a batch would take it
 *     past this size (a single batch may still exceed it)
 */
public record JournalOptions(long maxSegmentBytes) {
  public static final long DEFAULT_MAX_SEGMENT_BYTES = 64L * 1024 * 1024;

  public JournalOptions {
    if (maxSegmentBytes < SegmentHeader.BYTES + RecordFrame.OVERHEAD) {
      throw new IllegalArgumentException("maxSegmentBytes too small: " + maxSegmentBytes);
    }
  }

  public static JournalOptions defaults() {
    return new JournalOptions(DEFAULT_MAX_SEGMENT_BYTES);
  }
}
