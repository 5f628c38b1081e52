package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/** Whatever the queue and however jobs end: no GPU index is ever held by two running jobs. */
class GresPropertiesTest {
  /** kind: 0 per node, 1 per job, 2 per task; type "" = any. */
  record Req(int kind, String type, int count, int nodes, int minutes) {}

  @Provide
  Arbitrary<List<Req>> queues() {
    Arbitrary<Req> req = Combinators.combine(Arbitraries.integers().between(0, 2),
        Arbitraries.of("", "", "a100", "v100"), Arbitraries.integers().between(1, 3),
        Arbitraries.integers().between(1, 2), Arbitraries.of(5, 30, 60))
        .as(Req::new);
    return req.list().ofMinSize(1).ofMaxSize(20);
  }

  private static JobSpec spec(Req r) {
    String g = "gres:gpu:" + (r.type().isEmpty() ? "" : r.type() + ":") + r.count();
    JobSpec.Builder b = TestStates.spec().setTimeLimitMin(r.minutes()).setMinNodes(r.nodes())
        .setNumTasks(r.nodes()).setNtasksPerNode(1);
    return switch (r.kind()) {
      case 0 -> b.setTresPerNode(g).build();
      case 1 -> b.setTresPerJob(g).build();
      default -> b.setTresPerTask(g).build();
    };
  }

  @Property(tries = 150)
  void noGpuIndexIsHeldByTwoRunningJobs(@ForAll("queues") List<Req> reqs,
      @ForAll @IntRange(min = 1, max = 3) int nodes, @ForAll @IntRange(min = 0, max = 2) int a100,
      @ForAll @IntRange(min = 0, max = 3) int v100, @ForAll @IntRange(min = 0, max = 2) int untyped,
      @ForAll @IntRange(min = 1, max = 1000) int seed) {
    List<GresSlot> slots = new ArrayList<>();
    if (a100 > 0) {
      slots.add(GresSlot.newBuilder().setName("gpu").setType("a100").setCount(a100).build());
    }
    if (v100 > 0) {
      slots.add(GresSlot.newBuilder().setName("gpu").setType("v100").setCount(v100).setCores("0-3").build());
    }
    if (untyped > 0) {
      slots.add(GresSlot.newBuilder().setName("gpu").setCount(untyped).setCores("4-7").build());
    }
    ClusterState s = GresPlanningTest.cluster(nodes, slots.toArray(GresSlot[]::new));
    int id = 1;
    for (Req r : reqs) {
      s = TestStates.submit(s, id++, spec(r), 1000 + id);
    }
    java.util.Random random = new java.util.Random(seed);
    long now = 2000;
    for (int round = 0; round < 6; round++) {
      s = GresPlanningTest.applyAll(s, now);
      check(s, slots);
      for (JobRecord r : s.jobs().values()) { // some running jobs end
        JobInfo j = r.getInfo();
        if (JobStates.holdsResources(j) && random.nextBoolean()) {
          s = StateMachine.apply(s, new Command.JobEnded(j.getJobId(), now + 1, 0, j.getBatchHost()));
        }
      }
      check(s, slots);
      now += 60;
    }
  }

  private static void check(ClusterState s, List<GresSlot> slots) {
    Map<String, Set<Integer>> held = new HashMap<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!JobStates.holdsResources(j)) {
        continue;
      }
      for (NodeAllocation a : j.getAllocationList()) {
        for (GresAlloc g : a.getGresList()) {
          for (int i : g.getIndicesList()) {
            assertThat(held.computeIfAbsent(a.getNode(), k -> new HashSet<>()).add(i))
                .as("GPU %d of %s given twice", i, a.getNode()).isTrue();
            assertThat(i).isLessThan((int) Gres.total(slots, "gpu", ""));
            assertThat(typeOf(slots, i)).isEqualTo(g.getType());
          }
        }
      }
    }
    for (NodeInfo n : s.nodes().values()) {
      assertThat(new HashSet<>(Gres.indices(n.getGresUsedList(), "gpu")))
          .as("GresUsed of %s", n.getName()).isEqualTo(held.getOrDefault(n.getName(), Set.of()));
    }
  }

  private static String typeOf(List<GresSlot> slots, int index) {
    int next = 0;
    for (GresSlot g : slots) {
      if (index < next + g.getCount()) {
        return g.getType();
      }
      next += (int) g.getCount();
    }
    return "?";
  }
}
