package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeAllocation;

/** What must hold for any queue on any cluster. */
class PlannerPropertiesTest {
  private static final long NOW = 10_000;

  record Req(int nodes, int tasks, int minutes, boolean exclusive) {}

  @Provide
  Arbitrary<List<Req>> queues() {
    Arbitrary<Req> req = Combinators.combine(Arbitraries.integers().between(1, 3),
        Arbitraries.integers().between(1, 12), Arbitraries.of(1, 5, 10, 30, 60, 240),
        Arbitraries.of(false, false, false, true))
        .as((n, t, m, x) -> new Req(n, Math.max(n, t), m, x));
    return req.list().ofMinSize(1).ofMaxSize(25);
  }

  private static ClusterState submitAll(ClusterState s, List<Req> reqs) {
    int id = 1;
    for (Req r : reqs) {
      s = TestStates.submit(s, id, TestStates.spec().setMinNodes(r.nodes()).setNumTasks(r.tasks())
          .setTimeLimitMin(r.minutes()).setExclusive(r.exclusive()).build(), 1000 + id);
      id++;
    }
    return s;
  }

  private static ClusterState applyPlan(ClusterState s, long now) {
    for (Command c : PlanCheck.accept(s, Planner.plan(s, now), now)) {
      s = StateMachine.apply(s, c);
    }
    return s;
  }

  @Property(tries = 200)
  void noNodeIsEverOverAllocated(@ForAll("queues") List<Req> reqs,
      @ForAll @IntRange(min = 1, max = 5) int nodes, @ForAll @IntRange(min = 2, max = 8) int cpus) {
    ClusterState s = submitAll(TestStates.cluster(nodes, cpus, 8000), reqs);
    Plan plan = Planner.plan(s, NOW);
    Map<String, Integer> used = new HashMap<>();
    Map<String, Integer> jobs = new HashMap<>();
    for (Command.StartJob start : plan.starts()) {
      boolean exclusive = s.job(start.jobId()).orElseThrow().getInfo().getExclusive();
      for (NodeAllocation a : start.allocation()) {
        used.merge(a.getNode(), a.getCpus(), Integer::sum);
        jobs.merge(a.getNode(), 1, Integer::sum);
        if (exclusive) {
          assertThat(a.getCpus()).isEqualTo(cpus);
        }
      }
    }
    used.forEach((node, c) -> assertThat(c).as(node).isLessThanOrEqualTo(cpus));
    // every start survives the writer's re-check: nothing the planner chose is refused
    assertThat(PlanCheck.accept(s, plan, NOW).stream().filter(c -> c instanceof Command.StartJob))
        .hasSize(plan.starts().size());
  }

  /**
   * Backfill never delays a planned job: after the jobs started by one pass run, the next pass
   * plans every job it had planned no later than before.
   */
  @Property(tries = 200)
  void backfillNeverDelaysAPlannedJob(@ForAll("queues") List<Req> reqs,
      @ForAll @IntRange(min = 1, max = 5) int nodes, @ForAll @IntRange(min = 2, max = 8) int cpus) {
    ClusterState s = submitAll(TestStates.cluster(nodes, cpus, 8000), reqs);
    ClusterState first = applyPlan(s, NOW);
    Map<Integer, Long> promised = new HashMap<>();
    for (JobRecord r : first.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!j.getSchedNodes().isEmpty()) {
        promised.put(j.getJobId(), j.getStartTime());
      }
    }
    ClusterState second = applyPlan(first, NOW + 1);
    promised.forEach((id, start) -> {
      JobInfo j = second.job(id).orElseThrow().getInfo();
      // started since, or still planned: either way no later than promised
      assertThat(j.getStartTime()).as("job %d planned at %d", id, start).isBetween(1L, start);
    });
  }

  /**
   * Found by the property above: job 10 backfilled onto n5 beside job 8's reservation; the
   * next pass moved job 8 to n3 and job 9, reserved on n3, from 10660 to 10900.
   */
  @Example
  void aJobStartedBesideAReservationDoesNotMoveIt() {
    backfillNeverDelaysAPlannedJob(List.of(new Req(1, 1, 30, false), new Req(1, 1, 30, true),
        new Req(2, 2, 10, true), new Req(2, 6, 10, false), new Req(1, 1, 1, false), new Req(1, 1, 1, false),
        new Req(2, 2, 1, false), new Req(2, 10, 5, false), new Req(1, 1, 1, true), new Req(1, 1, 30, false)), 5, 6);
  }

  @Property(tries = 100)
  void aHigherPriorityJobIsNeverOvertakenForever(@ForAll @IntRange(min = 1, max = 4) int nodes,
      @ForAll @IntRange(min = 2, max = 8) int cpus, @ForAll @IntRange(min = 1, max = 20) int smallJobs) {
    // a whole-cluster job queued first, then a stream of small ones: the big one still gets a
    // start no later than when the running work reaches its limits
    ClusterState s = TestStates.cluster(nodes, cpus, 8000);
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(cpus).setTimeLimitMin(30).build(), 1000);
    s = applyPlan(s, NOW);
    s = TestStates.submit(s, 2, TestStates.spec().setMinNodes(nodes).setNumTasks(nodes * cpus)
        .setTimeLimitMin(30).build(), 1001);
    for (int i = 0; i < smallJobs; i++) {
      s = TestStates.submit(s, 3 + i, TestStates.spec().setTimeLimitMin(60).build(), 1002 + i);
    }
    s = applyPlan(s, NOW + 1);
    JobInfo big = s.job(2).orElseThrow().getInfo();
    assertThat(big.getStartTime()).isEqualTo(NOW + 30 * 60);
  }
}
