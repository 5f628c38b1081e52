package org.corral.ctld.journal;

import java.nio.file.Path;

/**
 * The journal or snapshot is damaged somewhere other than its torn tail, so starting would lose or
 * misorder acknowledged records. Thrown only in {@link RecoveryMode#STRICT}; nothing on disk has
 * been changed when it is thrown.
 */
public final class JournalCorruptException extends Exception {
  private final transient Path file;
  private final long offset;
  private final String problem;

  public JournalCorruptException(Path file, long offset, String problem) {
    super(
        "state damaged at "
            + file
            + " offset "
            + offset
            + ": "
            + problem
            + ". Nothing was changed. To start anyway, keeping the intact records before this point"
            + " and setting the rest aside, run slurmctld -i");
    this.file = file;
    this.offset = offset;
    this.problem = problem;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** Byte offset in {@link #file()} where the damage starts. */
  public long offset() {
    return offset;
  }

  /** What is wrong, without the advice. */
  public String problem() {
    return problem;
  }
}
