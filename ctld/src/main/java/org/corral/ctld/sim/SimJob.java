package org.corral.ctld.sim;

/**
 * One job of a workload: when it is submitted, how many processors it asks for, how long it
 * really runs and the limit it asked for (seconds), and who submitted it.
 */
public record SimJob(int id, long submit, int procs, long runtime, long requested, int user) {
  public SimJob {
    if (procs < 1 || runtime < 0 || requested < 1 || submit < 0) {
      throw new IllegalArgumentException("job " + id + ": needs procs >= 1, runtime >= 0, requested >= 1");
    }
  }
}
