package org.corral.common;

/** The Slurm version Corral presents itself as (tools compare it), and Corral's own. */
public final class Version {
  /** The Slurm release whose behaviour and output Corral matches. */
  public static final String NUMBER = "22.05.8";
  /**
   * What {@code -V}/{@code --version} prints: as the reference Slurm 22.05 (Debian's slurm-wlm
   * package) prints it, byte for byte, in every command and daemon.
   */
  public static final String TEXT = "slurm-wlm " + NUMBER;

  private Version() {}
}
