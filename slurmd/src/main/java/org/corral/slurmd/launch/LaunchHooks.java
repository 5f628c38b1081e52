package org.corral.slurmd.launch;

import java.nio.file.Path;
import java.util.List;
import org.corral.protocol.msg.LaunchBatchRequest;

/**
 * What a {@link JobSupervisor} runs around a job besides the job itself: the site's Prolog and
 * Epilog (as root), the words that put TaskProlog/TaskEpilog around the script, and the check
 * for processes that survive SIGKILL. {@link #NONE} does nothing. Implemented in
 * org.corral.slurmd.hooks.
 */
public interface LaunchHooks {
  LaunchHooks NONE = new LaunchHooks() {};

  /** Whether {@link #prolog} has anything to run (if not, the job starts at once). */
  default boolean hasProlog() {
    return false;
  }

  /**
   * Runs the Prolog for a job about to start, and keeps in {@code jobDir} what the Epilog will
   * need (it may run in a later slurmd). Blocking. False when the Prolog failed.
   */
  default boolean prolog(LaunchBatchRequest request, Path jobDir) {
    return true;
  }

  default boolean hasEpilog() {
    return false;
  }

  /** Runs the Epilog after the job ended with {@code exitStatus}. Blocking. False when it failed. */
  default boolean epilog(int jobId, Path jobDir, int exitStatus) {
    return true;
  }

  /**
   * Words put before the script's path on the job's command line, run as the user in the job's
   * environment (the TaskProlog/TaskEpilog shell), or none.
   */
  default List<String> scriptPrefix() {
    return List.of();
  }

  /** Seconds the job's processes may survive SIGKILL before the node is drained; 0 = unchecked. */
  default int unkillableTimeoutSeconds() {
    return 0;
  }

  /** Whether any process of the group still exists (a seam: tests fake survivors). */
  default boolean groupAlive(long processGroup) {
    return ProcessGroups.alive(processGroup);
  }
}
