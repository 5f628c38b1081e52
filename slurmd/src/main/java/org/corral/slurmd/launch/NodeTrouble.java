package org.corral.slurmd.launch;

/** What went wrong on the node around a job, beyond the job's own exit: the node gets drained. */
public enum NodeTrouble {
  NONE,
  /** The Prolog exited non-zero: the job never started (it is requeued, held). */
  PROLOG_FAILED,
  /** The Epilog exited non-zero after the job. */
  EPILOG_FAILED,
  /** The job's processes survived SIGKILL for UnkillableStepTimeout. */
  KILL_FAILED
}
