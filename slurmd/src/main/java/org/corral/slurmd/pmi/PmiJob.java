package org.corral.slurmd.pmi;

/**
 * What a step's PMI server tells its tasks, as Slurm's mpi/pmi2 does: the key-value space's name
 * (and PMI-2 job id) "JOBID.STEPID", the number of tasks (also the universe size), the process
 * mapping and this node's name for its messages. The application number is -1, as on the
 * reference.
 */
public record PmiJob(String kvsName, int size, String processMapping, String nodeName) {
  public static final int APPNUM = -1;
}
