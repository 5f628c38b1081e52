package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
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
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeAllocation;

/** What sharing (OverSubscribe) and user exclusivity must keep for any queue. */
class OverSubscribePropertiesTest {
  record Req(int nodes, int tasks, int minutes, boolean exclusive, boolean shares, boolean userExclusive, int uid) {}

  @Provide
  Arbitrary<List<Req>> queues() {
    Arbitrary<Req> req = Combinators.combine(Arbitraries.integers().between(1, 2),
        Arbitraries.integers().between(1, 10), Arbitraries.of(5, 30, 60),
        Arbitraries.of(false, false, false, false, true), Arbitraries.of(true, true, false),
        Arbitraries.of(false, false, true), Arbitraries.integers().between(1001, 1003))
        .as((n, t, m, x, sh, ux, uid) -> new Req(n, Math.max(n, t), m, x, sh, ux, uid));
    return req.list().ofMinSize(1).ofMaxSize(25);
  }

  /**
   * After each of a few passes (the oldest running job ending between them), on every node: a
   * whole-node job is alone; jobs that do not share hold at most the node's CPUs; sharing jobs
   * fit in the rest, none bigger than it and all together at most N times it (so they can lie
   * round it with at most N on any CPU, and never on a CPU of a job that does not share); memory
   * is never over-allocated; a node holding a --exclusive=user job holds only its user's jobs.
   */
  @Property(tries = 200)
  void noCpuHoldsMoreThanItsLimitOrASharerBesideANonSharer(@ForAll("queues") List<Req> reqs,
      @ForAll @IntRange(min = 1, max = 3) int nodes, @ForAll @IntRange(min = 2, max = 4) int limit) {
    ClusterState s = OverSubscribePlanningTest.cluster(nodes, 3000, "YES:" + limit);
    int id = 1;
    for (Req r : reqs) {
      s = OverSubscribePlanningTest.submit(s, id++, r.uid(), OverSubscribePlanningTest.job(r.tasks())
          .setMinNodes(r.nodes()).setTimeLimitMin(r.minutes()).setExclusive(r.exclusive())
          .setOversubscribe(r.shares()).setExclusiveUser(r.userExclusive()));
    }
    long now = 10_000;
    for (int pass = 0; pass < 4; pass++, now += 60) {
      Plan plan = Planner.plan(s, now);
      List<Command> accepted = PlanCheck.accept(s, plan, now);
      // nothing the planner chose is refused by the writer's re-check
      assertThat(accepted.stream().filter(c -> c instanceof Command.StartJob)).hasSize(plan.starts().size());
      for (Command c : accepted) {
        s = StateMachine.apply(s, c);
      }
      check(s, limit);
      JobInfo oldest = running(s).stream().findFirst().orElse(null);
      if (oldest != null) {
        s = StateMachine.apply(s, new Command.JobEnded(oldest.getJobId(), now + 30, 0, oldest.getBatchHost()));
      }
    }
  }

  private static List<JobInfo> running(ClusterState s) {
    List<JobInfo> out = new ArrayList<>();
    for (JobRecord r : s.jobs().values()) {
      if (JobStates.holdsResources(r.getInfo()) && r.getInfo().getAllocationCount() > 0) {
        out.add(r.getInfo());
      }
    }
    return out;
  }

  private static void check(ClusterState s, int limit) {
    Map<String, List<JobInfo>> on = new HashMap<>();
    for (JobInfo j : running(s)) {
      j.getAllocationList().forEach(a -> on.computeIfAbsent(a.getNode(), k -> new ArrayList<>()).add(j));
    }
    on.forEach((node, jobs) -> {
      int plain = 0;
      int shared = 0;
      int biggestSharer = 0;
      long mem = 0;
      for (JobInfo j : jobs) {
        NodeAllocation a = j.getAllocationList().stream().filter(x -> x.getNode().equals(node)).findFirst().orElseThrow();
        mem += a.getMemMb();
        if (j.getExclusive()) {
          assertThat(jobs).as("whole node %s", node).hasSize(1);
        }
        if (j.getOversubscribe() && !j.getExclusive()) {
          shared += a.getCpus();
          biggestSharer = Math.max(biggestSharer, a.getCpus());
        } else {
          plain += a.getCpus();
        }
        if (j.getExclusiveUser()) {
          assertThat(jobs).as("users on %s", node).allMatch(o -> o.getUserId() == j.getUserId());
        }
      }
      int room = 8 - plain;
      assertThat(room).as("CPUs of jobs that do not share on %s", node).isGreaterThanOrEqualTo(0);
      assertThat(biggestSharer).as(node).isLessThanOrEqualTo(room);
      assertThat(shared).as("sharing CPU-jobs on %s", node).isLessThanOrEqualTo(limit * room);
      assertThat(mem).as("memory on %s", node).isLessThanOrEqualTo(3000);
    });
  }
}
