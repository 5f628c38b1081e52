package org.corral.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.corral.common.SlurmDuration;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.sched.priority.PriorityPass;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One full scheduling cycle: multifactor priorities for every pending job, then the plan with
 * backfill (bf_max_job_test=10000, bf_window one day) over a cluster whose nodes are nine-tenths
 * busy with jobs ending over the next day, for a queue of mixed sizes (one-node jobs of 1-8
 * tasks, 2-16 node jobs, whole-node exclusive ones; limits from 5 minutes to 2 days).
 * {@code main} prints the controller heap each pending job takes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class SchedulerBench {
  static final long NOW = 1_800_000_000L;
  static final SchedulingConfig CONFIG = new SchedulingConfig(true,
      new SchedulingConfig.Weights(1000, 0, 10000, 2000, 3000, 0, java.util.Map.of()), 7 * 86400, false,
      Set.of(), 7 * 86400, 300, true, new SchedulingConfig.Backfill(30, 10_000, 60, 1440, 0, 100));

  @Param({"1000:10000", "10000:100000"})
  String nodesAndJobs;

  /** bf_max_job_test: 10000 as the comparison with Slurm; Slurm's default is 500. */
  @Param({"10000"})
  int maxJobTest;

  private ClusterState state;
  private SchedulingConfig config;

  @Setup
  public void build() {
    String[] p = nodesAndJobs.split(":");
    state = cluster(Integer.parseInt(p[0]), Integer.parseInt(p[1]), new Random(42));
    config = withMaxJobTest(maxJobTest);
  }

  @Benchmark
  public Plan cycle() {
    Command.SetPriorities prio = new PriorityPass(config).recalc(state, NOW);
    return Planner.plan(StateMachine.apply(state, prio), NOW, config);
  }

  /** Nodes of 32 or 64 CPUs, 90% of them running a job; {@code pending} jobs queued. */
  static ClusterState cluster(int nodeCount, int pending, Random rnd) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= nodeCount; i++) {
      int cpus = i % 4 == 0 ? 64 : 32;
      nodes.add(NodeInfo.newBuilder().setName("c" + i).setCpus(cpus).setRealMemoryMb(cpus * 4000L)
          .setWeight(1).addPartitions("batch").build());
      names.add("c" + i);
    }
    PartitionInfo part = PartitionInfo.newBuilder().setName("batch").setIsDefault(true)
        .addAllNodeNames(names).setState("UP").setMaxTimeMin((int) SlurmDuration.INFINITE)
        .setMaxNodes((int) SlurmDuration.INFINITE).setPriorityJobFactor(1).build();
    ClusterState s = StateMachine.apply(ClusterState.empty(1), new Command.LoadConfig(nodes, List.of(part), NOW - 90_000));
    for (NodeInfo n : nodes) {
      s = StateMachine.apply(s, new Command.NodeRegistered(n.getName(), NOW - 90_000, n.getCpus(),
          n.getRealMemoryMb(), 1, 2, "v", "Linux", "x86_64"));
    }
    int id = 1;
    for (NodeInfo n : nodes) {
      if (rnd.nextInt(10) == 0) {
        continue;
      }
      int limit = 10 + rnd.nextInt(1440);
      long start = NOW - rnd.nextInt(limit * 60);
      s = StateMachine.apply(s, new Command.SubmitJob(id, start - 10, 1000, "u0", 1000, "g",
          spec(1, n.getCpus(), limit).build()));
      s = StateMachine.apply(s, new Command.StartJob(id, start, List.of(NodeAllocation.newBuilder()
          .setNode(n.getName()).setCpus(n.getCpus()).setMemMb(n.getCpus() * 1000L).build())));
      id++;
    }
    for (int k = 0; k < pending; k++, id++) {
      int kind = rnd.nextInt(10);
      int limit = 5 + rnd.nextInt(2880);
      JobSpec.Builder spec = kind < 6 ? spec(1, 1 + rnd.nextInt(8), limit)
          : kind < 9 ? spec(2 + rnd.nextInt(15), 0, limit)
          : spec(1 + rnd.nextInt(4), 0, limit).setExclusive(true);
      int user = rnd.nextInt(50);
      s = StateMachine.apply(s, new Command.SubmitJob(id, NOW - rnd.nextInt(86400), 1000 + user, "u" + user,
          1000, "g", spec.build()));
    }
    return s;
  }

  private static JobSpec.Builder spec(int nodes, int tasks, int limitMin) {
    JobSpec.Builder b = JobSpec.newBuilder().setName("bench").setPartition("batch").setMinNodes(nodes)
        .setTimeLimitMin(limitMin).setMemPerCpuMb(1000).setWorkDir("/tmp");
    if (tasks > 0) {
      b.setNumTasks(tasks);
    }
    return b;
  }

  /** Heap per pending job: java -cp ... org.corral.bench.SchedulerBench [NODES JOBS [BF_MAX_JOB_TEST]]. */
  public static void main(String[] args) {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    SchedulingConfig config = args.length > 2 ? withMaxJobTest(Integer.parseInt(args[2])) : CONFIG;
    long empty = usedAfterGc(cluster(nodes, 0, new Random(42)));
    ClusterState full = cluster(nodes, jobs, new Random(42));
    long used = usedAfterGc(full);
    System.out.printf("%d nodes, %d pending jobs: %.0f bytes of heap per pending job%n", nodes, jobs,
        (double) (used - empty) / jobs);
    for (int round = 1; round <= 3; round++) {
      long t0 = System.nanoTime();
      Command.SetPriorities prio = new PriorityPass(config).recalc(full, NOW);
      long t1 = System.nanoTime();
      Plan plan = Planner.plan(StateMachine.apply(full, prio), NOW, config);
      long t2 = System.nanoTime();
      System.out.printf("cycle %d: priorities %.0f ms, plan %.0f ms, %d started, %d reserved, %d estimated%n",
          round, (t1 - t0) / 1e6, (t2 - t1) / 1e6, plan.starts().size(),
          plan.waiting().values().stream().filter(w -> !w.schedNodes().isEmpty()).count(),
          plan.waiting().values().stream().filter(w -> w.expectedStart() > 0).count());
    }
  }

  private static SchedulingConfig withMaxJobTest(int n) {
    return new SchedulingConfig(true, CONFIG.weights(), CONFIG.maxAgeS(), false, Set.of(), CONFIG.decayHalfLifeS(),
        CONFIG.calcPeriodS(), true, new SchedulingConfig.Backfill(30, n, 60, 1440, 0, 100));
  }

  private static long usedAfterGc(ClusterState keep) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime rt = Runtime.getRuntime();
    long used = rt.totalMemory() - rt.freeMemory();
    if (keep.jobs().isEmpty() && keep.nodes().isEmpty()) {
      throw new IllegalStateException();
    }
    return used;
  }
}
