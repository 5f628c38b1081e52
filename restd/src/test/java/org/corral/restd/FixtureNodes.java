package org.corral.restd;

import org.corral.slurmd.Slurmd;

/**
 * {@code FixtureNodes SLURM_CONF NODE...}: the real slurmd of each named node, all in this one
 * process (a JVM per node costs more than the whole test on a small machine); ended by SIGTERM,
 * on which each slurmd's shutdown hook stops its node.
 */
public final class FixtureNodes {
  private FixtureNodes() {}

  public static void main(String[] args) throws InterruptedException {
    for (int i = 1; i < args.length; i++) {
      String[] slurmd = {"-D", "-N", args[i], "-f", args[0]};
      Thread.ofPlatform().name("slurmd-" + args[i]).start(() -> Slurmd.main(slurmd));
    }
    Thread.currentThread().join(); // until killed
  }
}
