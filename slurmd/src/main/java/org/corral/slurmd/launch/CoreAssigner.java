package org.corral.slurmd.launch;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Chooses which of the node's CPUs a job gets: the lowest-numbered ones no other job on the
 * node holds, so the choice is deterministic. The node's CPUs (0..CPUs-1 of slurm.conf) map
 * onto the host CPUs this daemon may use, wrapping around where a local cluster configures more
 * CPUs than the host has.
 */
final class CoreAssigner {
  private final int nodeCpus;
  private final int[] hostCpus;
  private final Map<Integer, BitSet> held = new HashMap<>();

  CoreAssigner(int nodeCpus, BitSet hostCpus) {
    this.nodeCpus = Math.max(1, nodeCpus);
    this.hostCpus = hostCpus.isEmpty() ? new int[] {0} : hostCpus.stream().toArray();
  }

  /** The node CPUs for a job of {@code count} CPUs (again the same for a job that has some). */
  synchronized BitSet claim(int jobId, int count) {
    return claim(jobId, count, new BitSet());
  }

  /**
   * As above, taking free CPUs among {@code preferred} first (those gres.conf says are close to
   * the job's GPUs), then the lowest free others.
   */
  synchronized BitSet claim(int jobId, int count, BitSet preferred) {
    BitSet mine = held.get(jobId);
    if (mine != null) {
      return (BitSet) mine.clone();
    }
    BitSet busy = new BitSet();
    held.values().forEach(busy::or);
    mine = new BitSet();
    int wanted = Math.min(Math.max(1, count), nodeCpus);
    for (int cpu = preferred.nextSetBit(0); cpu >= 0 && cpu < nodeCpus && mine.cardinality() < wanted;
        cpu = preferred.nextSetBit(cpu + 1)) {
      if (!busy.get(cpu)) {
        mine.set(cpu);
      }
    }
    for (int cpu = busy.nextClearBit(0); cpu < nodeCpus && mine.cardinality() < wanted; cpu = busy.nextClearBit(cpu + 1)) {
      mine.set(cpu);
    }
    // More asked than free (the controller and this node disagree): share the lowest ones.
    for (int cpu = 0; mine.cardinality() < wanted; cpu++) {
      mine.set(cpu);
    }
    held.put(jobId, mine);
    return (BitSet) mine.clone();
  }

  /**
   * The CPUs the controller chose for the job (a node allocation's cpu_ids), or where it chose
   * none (an older record), as {@link #claim(int, int, BitSet)} picks them.
   */
  synchronized BitSet claim(int jobId, int count, BitSet preferred, BitSet given) {
    BitSet valid = given.get(0, nodeCpus);
    if (valid.isEmpty() || held.containsKey(jobId)) {
      return claim(jobId, count, preferred);
    }
    held.put(jobId, valid);
    return (BitSet) valid.clone();
  }

  /** A job re-adopted after a restart keeps the CPUs it had. */
  synchronized void restore(int jobId, BitSet nodeCpuIds) {
    held.put(jobId, (BitSet) nodeCpuIds.clone());
  }

  synchronized void release(int jobId) {
    held.remove(jobId);
  }

  /** The host CPU ids behind some node CPUs. */
  BitSet hostCpus(BitSet nodeCpuIds) {
    BitSet host = new BitSet();
    nodeCpuIds.stream().forEach(cpu -> host.set(hostCpus[cpu % hostCpus.length]));
    return host;
  }
}
