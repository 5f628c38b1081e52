package org.corral.ctld.journal;

/** How {@link Journal#open} treats damage that is not a torn tail. */
public enum RecoveryMode {
  /** Refuse to start: throw {@link JournalCorruptException} and change nothing on disk. */
  STRICT,
  /**
   * Keep every intact record up to the damage, set the rest aside, and go on (slurmctld -i). The
   * dropped bytes are preserved in {@code *.damaged} files for inspection.
   */
  IGNORE_DAMAGE
}
