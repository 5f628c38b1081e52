package org.corral.ctld.journal;

import java.util.List;
import java.util.Optional;

/**
 * What {@link Journal#open} found: the newest usable snapshot and every intact record after it.
 *
 * @param snapshot the snapshot's state bytes, empty if there was none
 * @param snapshotIndex the last journal index the snapshot covers (0 without a snapshot)
 * @param entries every intact record with index greater than snapshotIndex, in index order
 * @param notes what recovery did (torn tails cut, damage set aside), one line each, for the log
 */
public record Recovery(
    Optional<byte[]> snapshot, long snapshotIndex, List<JournalEntry> entries, List<String> notes) {
  public Recovery {
    entries = List.copyOf(entries);
    notes = List.copyOf(notes);
  }

  /**
   * Whether recovery cut or set aside records (a torn or damaged tail, a damaged file): some of
   * them may have been acknowledged. An unfinished snapshot loses nothing.
   */
  public boolean mayHaveLostRecords() {
    return notes.stream().anyMatch(n -> !n.startsWith("journal: removed unfinished snapshot"));
  }
}
