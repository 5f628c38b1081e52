package org.corral.ctld.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.corral.common.SlurmDuration;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.Waiting;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Replays a workload through the controller's state machine and planner on a virtual clock:
 * at each submission or end the planner runs as the controller's scheduler would, the jobs it
 * starts end after their run time (or at their limit), and nothing runs for real. Jobs ask for
 * {@code procs} tasks of one CPU, packed onto as few nodes as hold them.
 */
public final class Simulator {
  private static final long TAU_S = 10; // bounded slowdown's threshold

  /**
   * What a run measured.
   *
   * @param promisesKept jobs that started no later than the first start backfill reserved for them
   * @param promisesBroken jobs that started later than that: a job ending early can let a
   *     higher-priority job take an earlier place; when jobs run their limits, zero
   */
  public record Result(int jobs, long makespanS, double utilization, double meanWaitS,
      double meanBoundedSlowdown, long cycles, double meanCycleMicros, long maxCycleMicros, long wallMillis,
      long promisesKept, long promisesBroken) {
    public String report() {
      return String.format(java.util.Locale.ROOT, """
          jobs:                      %d
          makespan:                  %d s
          utilization:               %.3f
          mean wait:                 %.1f s
          mean bounded slowdown:     %.2f (tau = %d s)
          scheduling cycles:         %d (mean %.0f us, max %d us)
          reservations kept:         %d of %d
          simulated in:              %d ms (%.0f jobs/s)
          """, jobs, makespanS, utilization, meanWaitS, meanBoundedSlowdown, TAU_S, cycles, meanCycleMicros,
          maxCycleMicros, promisesKept, promisesKept + promisesBroken, wallMillis,
          jobs * 1000.0 / Math.max(1, wallMillis));
    }
  }

  private Simulator() {}

  public static Result run(List<SimJob> workload, int nodes, int cpusPerNode, SchedulingConfig cfg) {
    long wall0 = System.nanoTime();
    ClusterState s = cluster(nodes, cpusPerNode);
    List<SimJob> jobs = new ArrayList<>(workload);
    jobs.sort((a, b) -> Long.compare(a.submit(), b.submit()));
    Map<Integer, SimJob> byId = new HashMap<>();
    Map<Integer, Long> promised = new HashMap<>();
    PriorityQueue<long[]> ends = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0])); // {time, id}
    int next = 0;
    long cycles = 0;
    long cycleTotal = 0;
    long cycleMax = 0;
    double waitSum = 0;
    double bsldSum = 0;
    double work = 0;
    long kept = 0;
    long broken = 0;
    long first = jobs.isEmpty() ? 0 : jobs.get(0).submit();
    long last = first;
    int started = 0;
    while (next < jobs.size() || !ends.isEmpty()) {
      long now = Math.min(next < jobs.size() ? jobs.get(next).submit() : Long.MAX_VALUE,
          ends.isEmpty() ? Long.MAX_VALUE : ends.peek()[0]);
      while (!ends.isEmpty() && ends.peek()[0] == now) {
        int id = (int) ends.poll()[1];
        s = StateMachine.apply(s, new Command.JobEnded(id, now, 0, s.job(id).orElseThrow().getInfo().getBatchHost()));
        s = StateMachine.apply(s, new Command.PurgeJob(id));
        last = Math.max(last, now);
      }
      while (next < jobs.size() && jobs.get(next).submit() == now) {
        SimJob j = jobs.get(next++);
        byId.put(j.id(), j);
        s = StateMachine.apply(s, new Command.SubmitJob(j.id(), now, 1000 + j.user(), "u" + j.user(), 1000,
            "g", spec(j, cpusPerNode)));
      }
      long t0 = System.nanoTime();
      Plan plan = Planner.plan(s, now, cfg);
      long micros = (System.nanoTime() - t0) / 1000;
      cycles++;
      cycleTotal += micros;
      cycleMax = Math.max(cycleMax, micros);
      for (Command.StartJob start : plan.starts()) {
        s = StateMachine.apply(s, start);
        SimJob j = byId.get(start.jobId());
        long run = Math.min(j.runtime(), limitSeconds(j));
        ends.add(new long[] {now + run, j.id()});
        long wait = now - j.submit();
        waitSum += wait;
        bsldSum += Math.max(1.0, (double) (wait + run) / Math.max(run, TAU_S));
        work += (double) j.procs() * run;
        started++;
        Long p = promised.remove(j.id());
        if (p != null) {
          if (now <= p) {
            kept++;
          } else {
            broken++;
          }
        }
      }
      for (Map.Entry<Integer, Waiting> e : plan.waiting().entrySet()) {
        if (!e.getValue().schedNodes().isEmpty()) {
          promised.putIfAbsent(e.getKey(), e.getValue().expectedStart());
        }
      }
    }
    long makespan = Math.max(1, last - first);
    return new Result(started, makespan, work / ((double) nodes * cpusPerNode * makespan),
        started == 0 ? 0 : waitSum / started, started == 0 ? 0 : bsldSum / started, cycles,
        cycles == 0 ? 0 : (double) cycleTotal / cycles, cycleMax, (System.nanoTime() - wall0) / 1_000_000,
        kept, broken);
  }

  /** The limit a job asked for, in whole minutes as sbatch sends it. */
  private static long limitSeconds(SimJob j) {
    return Math.max(1, (j.requested() + 59) / 60) * 60;
  }

  private static JobSpec spec(SimJob j, int cpusPerNode) {
    int nodes = (j.procs() + cpusPerNode - 1) / cpusPerNode;
    return JobSpec.newBuilder().setName("sim").setPartition("sim").setMinNodes(nodes).setNumTasks(j.procs())
        .setTimeLimitMin((int) Math.max(1, (j.requested() + 59) / 60)).setMemPerCpuMb(1).setWorkDir("/").build();
  }

  private static ClusterState cluster(int count, int cpus) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      nodes.add(NodeInfo.newBuilder().setName("s" + i).setCpus(cpus).setRealMemoryMb(cpus * 1000L)
          .setWeight(1).addPartitions("sim").build());
      names.add("s" + i);
    }
    PartitionInfo part = PartitionInfo.newBuilder().setName("sim").setIsDefault(true).addAllNodeNames(names)
        .setState("UP").setMaxTimeMin((int) SlurmDuration.INFINITE).setMaxNodes((int) SlurmDuration.INFINITE)
        .setPriorityJobFactor(1).build();
    ClusterState s = StateMachine.apply(ClusterState.empty(1), new Command.LoadConfig(nodes, List.of(part), 0));
    for (NodeInfo n : nodes) {
      s = StateMachine.apply(s, new Command.NodeRegistered(n.getName(), 0, cpus, cpus * 1000L, 0, 0, "sim", "sim", "sim"));
    }
    return s;
  }
}
