package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;

/**
 * Gang scheduling over time: jobs arrive, are placed by the planner in a FORCE:N partition,
 * run for the CPU time they need and end; every second the controller takes the gang's turns.
 */
class GangSchedulePropertiesTest {
  /** A job: when it is submitted (seconds after the start), its tasks and the run time it needs. */
  record Arrival(int at, int tasks, int needS) {}

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    return Combinators.combine(Arbitraries.integers().between(0, 60), Arbitraries.integers().between(1, 8),
        Arbitraries.integers().between(1, 40)).as(Arrival::new).list().ofMinSize(1).ofMaxSize(8);
  }

  /**
   * At every second, on every node, the jobs running hold at most its CPUs (so no CPU runs two
   * jobs of the partition), those allocated at most N times them, and every job ends.
   */
  @Property(tries = 60)
  void noCpuRunsTwoJobsAndAllocationsStayWithinN(@ForAll("arrivals") List<Arrival> jobs,
      @ForAll @IntRange(min = 1, max = 2) int nodes, @ForAll @IntRange(min = 1, max = 4) int cpus,
      @ForAll @IntRange(min = 2, max = 4) int limit, @ForAll @IntRange(min = 5, max = 10) int slice) {
    new Run(jobs, nodes, cpus, limit, slice, false).untilDone(s -> {
      for (int n = 1; n <= nodes; n++) {
        assertThat(cpusOn(s, "n" + n, true)).isLessThanOrEqualTo(cpus);
        assertThat(cpusOn(s, "n" + n, false)).isLessThanOrEqualTo(limit * cpus);
      }
    });
  }

  /**
   * Jobs that each take a whole node: a job waits at most N - 1 slices for its turn (the one
   * running, and those waiting longer, each run a slice at most), so within N slices it runs.
   */
  @Property(tries = 60)
  void everyJobRunsWithinNSlices(@ForAll("arrivals") List<Arrival> jobs,
      @ForAll @IntRange(min = 1, max = 4) int cpus, @ForAll @IntRange(min = 2, max = 4) int limit,
      @ForAll @IntRange(min = 5, max = 10) int slice) {
    Run run = new Run(jobs, 1, cpus, limit, slice, true);
    run.untilDone(s -> { });
    assertThat(run.longestWait).isLessThanOrEqualTo((limit - 1) * slice + 1);
  }

  /** CPUs of the jobs on {@code node} that run (or, {@code runningOnly} false, are allocated there). */
  static int cpusOn(ClusterState s, String node, boolean runningOnly) {
    int sum = 0;
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (JobStates.holdsResources(j) && (j.getState() == JobState.RUNNING || !runningOnly && j.getGangSuspended())) {
        sum += j.getAllocationList().stream().filter(a -> a.getNode().equals(node)).mapToInt(NodeAllocation::getCpus).sum();
      }
    }
    return sum;
  }

  /** One simulated run, a second at a time. */
  static final class Run {
    private final List<Arrival> jobs;
    private final int slice;
    private final boolean wholeNode;
    private final int cpus;
    private final int nodes;
    private ClusterState s;
    private final Map<Integer, Integer> ran = new HashMap<>();
    private final Map<Integer, Long> waitingSince = new HashMap<>();
    long longestWait;

    Run(List<Arrival> jobs, int nodes, int cpus, int limit, int slice, boolean wholeNode) {
      this.jobs = jobs;
      this.slice = slice;
      this.wholeNode = wholeNode;
      this.cpus = cpus;
      this.nodes = nodes;
      this.s = GangScheduleTest.cluster(nodes, cpus, new Object[] {"p", 1, "FORCE:" + limit});
    }

    void untilDone(java.util.function.Consumer<ClusterState> check) {
      long start = 10_000;
      int done = 0;
      for (long t = start; done < jobs.size(); t++) {
        assertThat(t - start).as("every job ends").isLessThan(100_000);
        for (JobRecord r : s.jobs().values()) { // a second of CPU time for each job running
          JobInfo j = r.getInfo();
          if (j.getState() == JobState.RUNNING && !j.getCompleting()
              && ran.merge(j.getJobId(), 1, Integer::sum) >= jobs.get(j.getJobId() - 1).needS()) {
            s = StateMachine.apply(s, new Command.JobEnded(j.getJobId(), t, 0, j.getBatchHost()));
            done++;
          }
        }
        for (int i = 0; i < jobs.size(); i++) {
          if (start + jobs.get(i).at() == t) {
            int tasks = wholeNode ? cpus : Math.min(jobs.get(i).tasks(), cpus * nodes);
            s = TestStates.submit(s, i + 1, TestStates.spec().setPartition("p").setNumTasks(tasks)
                .setMinNodes((tasks + cpus - 1) / cpus).setMemPerCpuMb(1)
                .setOversubscribe(true).build(), t);
          }
        }
        for (Command c : PlanCheck.accept(s, Planner.plan(s, t), t)) {
          s = StateMachine.apply(s, c);
        }
        for (Command c : GangSchedule.turns(s, t, slice)) {
          s = StateMachine.apply(s, c);
        }
        check.accept(s);
        for (JobRecord r : s.jobs().values()) {
          JobInfo j = r.getInfo();
          if (j.getGangSuspended()) {
            longestWait = Math.max(longestWait, t - waitingSince.computeIfAbsent(j.getJobId(), k -> j.getSuspendTime()));
          } else {
            waitingSince.remove(j.getJobId());
          }
        }
      }
    }
  }
}
