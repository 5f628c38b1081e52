package org.corral.ctld.state;

/** Node reason texts Slurm sets by itself. */
public final class NodeReasons {
  public static final String NOT_RESPONDING = "Not responding";

  private NodeReasons() {}
}
