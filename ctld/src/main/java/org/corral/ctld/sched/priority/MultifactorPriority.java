package org.corral.ctld.sched.priority;

import java.util.HashMap;
import java.util.Map;
import org.corral.common.SlurmDuration;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PriorityFactors;

/**
 * A job's priority from its factors, as priority_multifactor.html defines it:
 * site + Σ PriorityWeightX × factorX + Σ TRES weight × TRES factor − nice, truncated to an
 * integer of at least 1. Pure: the same state, time and usage give the same priorities.
 */
public final class MultifactorPriority {
  /** priority/basic: the first job gets this, each later one one less (first in, first out). */
  static final long BASIC_TOP = 0xFFFF0000L;

  private final SchedulingConfig cfg;
  private final java.util.function.ToDoubleFunction<JobInfo> fairshare;
  private final java.util.function.ToDoubleFunction<JobInfo> qos;
  private final int totalNodes;
  private final long totalCpus;
  private final long maxPartitionFactor;
  private final Map<String, long[]> partitionTotals = new HashMap<>(); // cpus, nodes, mem
  private final Map<String, Long> partitionFactors = new HashMap<>();

  /** Fairshare factors by user name (no association tree: every user under one account). */
  public MultifactorPriority(SchedulingConfig cfg, ClusterState s, Map<String, Double> fairshare) {
    this(cfg, s, j -> fairshare.getOrDefault(j.getUserName(), 0.0));
  }

  /** Fairshare factors by job (the job's association in the tree). */
  public MultifactorPriority(SchedulingConfig cfg, ClusterState s,
      java.util.function.ToDoubleFunction<JobInfo> fairshare) {
    this(cfg, s, fairshare, j -> 0);
  }

  /** @param qos each job's QOS factor: its QOS's Priority over the highest any QOS has */
  public MultifactorPriority(SchedulingConfig cfg, ClusterState s,
      java.util.function.ToDoubleFunction<JobInfo> fairshare, java.util.function.ToDoubleFunction<JobInfo> qos) {
    this.cfg = cfg;
    this.fairshare = fairshare;
    this.qos = qos;
    this.totalNodes = Math.max(1, s.nodes().size());
    this.totalCpus = Math.max(1, s.nodes().values().stream().mapToLong(NodeInfo::getCpus).sum());
    this.maxPartitionFactor = s.partitions().stream().mapToLong(PartitionInfo::getPriorityJobFactor)
        .max().orElse(0);
    for (PartitionInfo p : s.partitions()) {
      long[] t = new long[3];
      for (String n : p.getNodeNamesList()) {
        s.node(n).ifPresent(node -> {
          t[0] += node.getCpus();
          t[1]++;
          t[2] += node.getRealMemoryMb();
        });
      }
      partitionTotals.put(p.getName(), t);
      partitionFactors.put(p.getName(), (long) p.getPriorityJobFactor());
    }
  }

  /** The job's priority and factors at {@code now}. */
  public Command.JobPriority of(JobInfo j, long now) {
    if (!cfg.multifactor()) {
      long p = Math.max(1, Math.min(0xFFFFFFFEL, BASIC_TOP - Integer.toUnsignedLong(j.getJobId()) - j.getNice()));
      return new Command.JobPriority((int) p, PriorityFactors.getDefaultInstance());
    }
    PriorityFactors.Builder f = PriorityFactors.newBuilder()
        .setAge(age(j, now))
        .setFairshare(fairshare.applyAsDouble(j))
        .setJobSize(jobSize(j))
        .setPartition(partition(j))
        .setQos(qos.applyAsDouble(j));
    long[] totals = partitionTotals.getOrDefault(j.getPartition(), new long[3]);
    for (String tres : cfg.weights().tres().keySet()) {
      double v = switch (tres) {
        case "cpu" -> ratio(j.getNumCpus(), totals[0]);
        case "node" -> ratio(Math.max(1, j.getMinNodes()), totals[1]);
        case "mem" -> ratio(memory(j), totals[2]);
        default -> 0; // GRES and licenses arrive with their issues
      };
      f.putTres(tres, v);
    }
    double sum = weightedSum(f, j.getNice());
    PriorityFactors factors = f.setSum(sum).build();
    return new Command.JobPriority((int) (long) Math.max(1, Math.min(sum, 0xFFFFFFFEL)), factors);
  }

  /** The weighted sum; the priority is it truncated to an unsigned 32-bit integer of at least 1. */
  private double weightedSum(PriorityFactors.Builder f, int nice) {
    SchedulingConfig.Weights w = cfg.weights();
    double sum = f.getSite() + w.age() * f.getAge() + w.assoc() * f.getAssoc()
        + w.fairshare() * f.getFairshare() + w.jobSize() * f.getJobSize()
        + w.partition() * f.getPartition() + w.qos() * f.getQos() - nice;
    for (Map.Entry<String, Double> t : f.getTresMap().entrySet()) {
      sum += w.tres().getOrDefault(t.getKey(), 0.0) * t.getValue();
    }
    return sum;
  }

  /** Time eligible (since the begin time; held jobs do not age unless ACCRUE_ALWAYS) over PriorityMaxAge. */
  private double age(JobInfo j, long now) {
    boolean always = cfg.hasFlag("ACCRUE_ALWAYS");
    if (!always && (j.getPriority() == 0 || j.getEligibleTime() > now)) {
      return 0;
    }
    long since = always ? j.getSubmitTime() : j.getEligibleTime();
    if (cfg.maxAgeS() <= 0) {
      return 1;
    }
    return Math.min(1.0, Math.max(0, now - since) / (double) cfg.maxAgeS());
  }

  /**
   * Nodes and CPUs asked for against the cluster's, averaged (measured on Slurm 22.05: -n1 on
   * 4 nodes of 8 CPUs gives (1/4 + 1/32) / 2 = 0.140625); PriorityFavorSmall turns it around,
   * SMALL_RELATIVE_TO_TIME uses CPUs per minute of time limit instead.
   */
  private double jobSize(JobInfo j) {
    int nodes = Math.max(1, j.getMinNodes());
    long cpus = Math.max(1, j.getNumCpus());
    if (cfg.hasFlag("SMALL_RELATIVE_TO_TIME")) {
      long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
      double perMinute = cpus / (double) (limit == SlurmDuration.INFINITE || limit == 0 ? 1 : limit);
      double v = Math.min(1.0, perMinute / totalCpus);
      return cfg.favorSmall() ? 1.0 - v : v;
    }
    if (cfg.favorSmall()) {
      return Math.max(0, ((1.0 - (nodes - 1) / (double) totalNodes) + (1.0 - (cpus - 1) / (double) totalCpus)) / 2);
    }
    return Math.min(1.0, (nodes / (double) totalNodes + cpus / (double) totalCpus) / 2);
  }

  /** The partition's PriorityJobFactor over the highest of all partitions. */
  private double partition(JobInfo j) {
    if (maxPartitionFactor == 0) {
      return 0;
    }
    return partitionFactors.getOrDefault(j.getPartition(), 0L) / (double) maxPartitionFactor;
  }

  private static long memory(JobInfo j) {
    if (j.getMemPerNodeMb() > 0) {
      return j.getMemPerNodeMb() * Math.max(1, j.getMinNodes());
    }
    return j.getMemPerCpuMb() * Math.max(1, j.getNumCpus());
  }

  private static double ratio(double part, double whole) {
    return whole <= 0 ? 0 : Math.min(1.0, part / whole);
  }
}
