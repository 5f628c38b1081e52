package org.corral.ctld.journal;

import java.util.Objects;

/** One record of the journal: its position in the log and its opaque bytes. */
public record JournalEntry(long index, byte[] data) {
  public JournalEntry {
    Objects.requireNonNull(data, "data");
  }
}
