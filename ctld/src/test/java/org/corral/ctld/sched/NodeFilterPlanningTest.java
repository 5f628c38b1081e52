package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/** -w, -x and -C choose among the partition's nodes. */
class NodeFilterPlanningTest {
  private static ClusterState featured() {
    ClusterState s = TestStates.cluster(4, 8, 4000);
    List<NodeInfo> nodes = s.nodesInOrder().stream().map(n -> n.toBuilder()
        .addAllFeatures(n.getName().equals("n3") || n.getName().equals("n4") ? List.of("gpu", "big") : List.of("cpu"))
        .build()).toList();
    List<PartitionInfo> parts = s.partitions();
    s = StateMachine.apply(s, new Command.LoadConfig(nodes, parts, 150));
    for (NodeInfo n : nodes) {
      s = StateMachine.apply(s, new Command.NodeRegistered(n.getName(), 160, 8, 4000, 1, 2, "v", "Linux", "x86_64"));
    }
    return s;
  }

  private static String nodesOf(ClusterState s, int id) {
    Plan p = Planner.plan(s, 2000);
    return p.starts().stream().filter(c -> c.jobId() == id).findFirst()
        .map(c -> c.allocation().stream().map(a -> a.getNode()).toList().toString()).orElse("pending");
  }

  @Test
  void requiredExcludedAndFeatures() {
    ClusterState s = featured();
    s = TestStates.submit(s, 1, TestStates.spec().setReqNodes("n2,n4").setMinNodes(2).setNumTasks(2).build(), 1000);
    assertThat(nodesOf(s, 1)).isEqualTo("[n2, n4]");
    s = TestStates.submit(featured(), 2, TestStates.spec().setExcNodes("n1").build(), 1000);
    assertThat(nodesOf(s, 2)).isEqualTo("[n2]");
    ClusterState f = TestStates.submit(featured(), 3, TestStates.spec().setConstraint("gpu&big").build(), 1000);
    assertThat(nodesOf(f, 3)).isEqualTo("[n3]");
    f = TestStates.submit(featured(), 4, TestStates.spec().setConstraint("nosuch|cpu").setMinNodes(2).setNumTasks(2).build(), 1000);
    assertThat(nodesOf(f, 4)).isEqualTo("[n1, n2]");
  }

  @Test
  void aRequiredNodeThatIsFullMakesTheJobWait() {
    ClusterState s = TestStates.submit(featured(), 1, TestStates.spec().setNumTasks(8).setReqNodes("n1").build(), 1000);
    s = StateMachine.apply(s, Planner.plan(s, 2000).starts().get(0));
    s = TestStates.submit(s, 2, TestStates.spec().setReqNodes("n1").build(), 1001);
    Plan p = Planner.plan(s, 2001);
    assertThat(p.starts()).isEmpty();
    assertThat(p.waiting().get(2).schedNodes()).isEqualTo("n1");
  }
}
