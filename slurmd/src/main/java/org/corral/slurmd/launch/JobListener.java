package org.corral.slurmd.launch;

/** Told once per job (per JVM) when a batch job launched or re-adopted by a {@link JobSupervisor} ends. */
@FunctionalInterface
public interface JobListener {
  /**
   * Called from any thread.
   *
   * @param exitStatus wait(2)-style: {@code code << 8} for a normal exit, the signal number
   *     (with 0x80 when a core was dumped) for a death by signal
   * @param launchFailed true when the job's script never started (unknown user, output file not
   *     creatable as the user, ...); {@code message} then says why
   */
  void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message);

  /**
   * As {@link #finished(int, int, long, boolean, String)}, also telling whether the kernel's OOM
   * killer killed a process of the job (in its cgroup) before it ended.
   */
  default void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message,
      boolean outOfMemory) {
    finished(jobId, exitStatus, endTimeEpochSec, launchFailed, message);
  }

  /**
   * As the others, also telling what went wrong on the node around the job (a failed Prolog or
   * Epilog, processes that survived SIGKILL): the controller drains the node.
   */
  default void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed,
      String message, boolean outOfMemory, NodeTrouble trouble) {
    finished(jobId, exitStatus, endTimeEpochSec, launchFailed, message, outOfMemory);
  }

  /** As the others, also with the batch step's usage over its life (for accounting), or null. */
  default void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed,
      String message, boolean outOfMemory, NodeTrouble trouble, org.corral.protocol.msg.StepUsage usage) {
    finished(jobId, exitStatus, endTimeEpochSec, launchFailed, message, outOfMemory, trouble);
  }

  /**
   * The job's script ended and its Epilog starts; {@link #finished} follows once the Epilog is
   * done. Only shown (the job is COMPLETING meanwhile): nothing is lost if it never arrives.
   */
  default void ending(int jobId, int exitStatus, long endTimeEpochSec) {
  }
}
