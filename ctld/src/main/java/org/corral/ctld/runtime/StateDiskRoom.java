package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.corral.common.SlurmError;

/**
 * Whether StateSaveLocation's disk has room for a submission. A submission is refused, with
 * Slurm's "I/O error writing script/environment to file", when it would leave less than a reserve
 * free: the reserve is for what running jobs still have to journal (their ends, their steps), so
 * a full disk stops new work, never the work already running, and reads go on as ever.
 */
final class StateDiskRoom {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  /** Room kept for running jobs' records when submissions are refused. */
  static final long DEFAULT_RESERVE = 64L << 20;
  private static final long LOG_EVERY_NANOS = 60_000_000_000L;

  /** Free bytes where the state is written; a failure to tell reads as room enough. */
  @FunctionalInterface
  interface FreeSpace {
    long bytes() throws IOException;
  }

  private final Path dir;
  private final long reserve;
  private final FreeSpace free;
  private final LongSupplier nanos;
  private long nextLog = Long.MIN_VALUE;

  StateDiskRoom(Path dir, long reserve, FreeSpace free, LongSupplier nanos) {
    this.dir = dir;
    this.reserve = reserve;
    this.free = free;
    this.nanos = nanos;
  }

  /** The room on StateSaveLocation's file system, with the default reserve. */
  static StateDiskRoom of(Path stateSaveLocation) {
    return new StateDiskRoom(stateSaveLocation, DEFAULT_RESERVE,
        () -> Files.getFileStore(stateSaveLocation).getUsableSpace(), System::nanoTime);
  }

  /**
   * Refuses a submission of about {@code bytes} (its script and environment, and its journal
   * record of the same size) that would eat into the reserve.
   */
  void checkRoomFor(long bytes) {
    long left;
    try {
      left = free.bytes();
    } catch (IOException e) {
      return; // not knowing is no reason to refuse: a write that fails is still refused
    }
    if (left - 2 * bytes >= reserve) {
      return;
    }
    logOncePerMinute(left);
    throw new SlurmException(SlurmError.WRITING_TO_FILE, SlurmError.WRITING_TO_FILE.message());
  }

  private synchronized void logOncePerMinute(long left) {
    long now = nanos.getAsLong();
    if (nextLog != Long.MIN_VALUE && now - nextLog < 0) {
      return;
    }
    nextLog = now + LOG_EVERY_NANOS;
    LOG.log(Level.ERROR, "StateSaveLocation " + dir + " is nearly full (" + (left >> 20)
        + " MiB free, " + (reserve >> 20) + " MiB kept for running jobs): submissions are refused");
  }
}
