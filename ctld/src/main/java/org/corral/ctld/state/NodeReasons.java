package org.corral.ctld.state;

/** Node reason texts Slurm sets by itself. */
public final class NodeReasons {
  public static final String NOT_RESPONDING = "Not responding";
  /** The Prolog exited non-zero on the node (the job is requeued and held). */
  public static final String PROLOG_ERROR = "Prolog error";
  /** The Epilog exited non-zero on the node. */
  public static final String EPILOG_ERROR = "Epilog error";
  /** A job's processes survived SIGKILL for UnkillableStepTimeout. */
  public static final String KILL_TASK_FAILED = "Kill task failed";

  private NodeReasons() {}
}
