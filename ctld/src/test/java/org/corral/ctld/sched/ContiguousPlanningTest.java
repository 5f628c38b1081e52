package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** --contiguous: the job's nodes are consecutive in the partition's node order. */
class ContiguousPlanningTest {

  /** Six idle 8-CPU nodes n1..n6, the listed ones filled by a job each. */
  private static ClusterState busy(String nodes) {
    ClusterState s = TestStates.cluster(6, 8, 4000);
    int id = 100;
    for (String n : nodes.isEmpty() ? new String[0] : nodes.split(" ")) {
      s = TestStates.submit(s, ++id, TestStates.spec().setNumTasks(8).setReqNodes(n).build(), 1000);
      int job = id;
      s = StateMachine.apply(s, Planner.plan(s, 1500).starts().stream().filter(c -> c.jobId() == job)
          .findFirst().orElseThrow());
    }
    return s;
  }

  @ParameterizedTest(name = "busy [{0}], -N{1} -n{2} contiguous={3} -> {4}")
  @CsvSource({
      // busy nodes, nodes, tasks, contiguous, placed on
      "'n2 n4',    2, 16, true,  '[n5, n6]'",
      "'n2 n4',    2, 16, false, '[n1, n3]'",
      "'n2 n4',    3, 24, true,  pending",
      "'n2 n4',    3, 24, false, '[n1, n3, n5]'",
      "'n2',       2, 2,  true,  '[n3, n4]'",   // tasks packed on the first of the run as elsewhere
      "'n2',       2, 2,  false, '[n1, n3]'",
      "'',         3, 3,  true,  '[n1, n2, n3]'",
      "'n1 n3 n5', 2, 2,  true,  pending",
      "'n6',       1, 8,  true,  '[n1]'",
  })
  void nodesAreConsecutive(String busy, int nodes, int tasks, boolean contiguous, String placed) {
    ClusterState s = TestStates.submit(busy(busy), 1,
        TestStates.spec().setMinNodes(nodes).setNumTasks(tasks).setContiguous(contiguous).build(), 1600);
    Plan p = Planner.plan(s, 2000);
    String got = p.starts().stream().filter(c -> c.jobId() == 1).findFirst()
        .map(c -> c.allocation().stream().map(a -> a.getNode()).toList().toString()).orElse("pending");
    assertThat(got).isEqualTo(placed);
  }
}
