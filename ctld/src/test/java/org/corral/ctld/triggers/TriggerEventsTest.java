package org.corral.ctld.triggers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.ctld.state.AcctOutbox;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.TriggerInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcollections.HashTreePMap;
import org.pcollections.TreePMap;

/** Which triggers fire from one look at the cluster to the next, with which arguments. */
class TriggerEventsTest {
  private final TriggerEvents events = new TriggerEvents();

  private static NodeInfo node(String name, NodeBaseState base, boolean drain, int jobs) {
    return NodeInfo.newBuilder().setName(name).setBaseState(base).setDrain(drain).setRunningJobs(jobs).build();
  }

  private static ClusterState state(List<NodeInfo> nodes, JobInfo... jobs) {
    Map<String, NodeInfo> map = new LinkedHashMap<>();
    nodes.forEach(n -> map.put(n.getName(), n));
    TreePMap<Integer, JobRecord> js = TreePMap.empty();
    for (JobInfo j : jobs) {
      js = js.plus(j.getJobId(), JobRecord.newBuilder().setInfo(j).build());
    }
    return new ClusterState(js, HashTreePMap.from(map), List.copyOf(map.keySet()), List.of(), 100, 0, AcctOutbox.EMPTY);
  }

  private static List<NodeInfo> idle(String... names) {
    return java.util.Arrays.stream(names).map(n -> node(n, NodeBaseState.NODE_IDLE, false, 0)).toList();
  }

  private static TriggerInfo trigger(int id, String resType, String resId, String type, int offset, boolean perm) {
    return TriggerInfo.newBuilder().setId(id).setResType(resType).setResId(resId).setType(type).setOffset(offset)
        .setPerm(perm).setProgram("/bin/true").build();
  }

  private static List<String> fired(TriggerEvents.Outcome o) {
    return o.firings().stream().map(f -> f.trigger().getId() + ":" + String.join(" ", f.args())).toList();
  }

  @Test
  void nodesGoingDownAndComingBackFireTheirTriggersWithTheNodes() {
    List<TriggerInfo> ts = List.of(trigger(1, "node", "*", "down", 0, false), trigger(2, "node", "n2", "down", 0, true),
        trigger(3, "node", "*", "up", 0, false), trigger(4, "node", "*", "reconfig", 0, false));
    assertThat(fired(events.pass(ts, state(idle("n1", "n2", "n3")), 100))).isEmpty(); // the first look only learns
    List<NodeInfo> down = List.of(node("n1", NodeBaseState.NODE_DOWN, false, 0),
        node("n2", NodeBaseState.NODE_DOWN, false, 0), node("n3", NodeBaseState.NODE_IDLE, false, 0));
    TriggerEvents.Outcome o = events.pass(ts, state(down), 105);
    assertThat(fired(o)).containsExactly("1:n[1-2]", "2:n2", "4:reconfig");
    assertThat(o.finished()).containsExactlyInAnyOrder(1, 4); // 2 is PERM
    assertThat(fired(events.pass(ts, state(down), 110))).isEmpty(); // no new event
    assertThat(fired(events.pass(ts, state(idle("n1", "n2", "n3")), 115))).containsExactly("3:n[1-2]", "4:reconfig");
  }

  @Test
  void drainedAndIdleNodesAndOffsets() {
    List<TriggerInfo> ts = List.of(trigger(1, "node", "*", "drained", 0, false),
        trigger(2, "node", "*", "idle", 30, true), trigger(3, "node", "n1", "down", 20, false));
    List<NodeInfo> busy = List.of(node("n1", NodeBaseState.NODE_IDLE, false, 1), node("n2", NodeBaseState.NODE_IDLE, false, 0));
    events.pass(ts, state(busy), 100);
    // n1 drains with a job still on it: draining, not drained
    List<NodeInfo> draining = List.of(node("n1", NodeBaseState.NODE_IDLE, true, 1), node("n2", NodeBaseState.NODE_IDLE, false, 0));
    assertThat(fired(events.pass(ts, state(draining), 110))).isEmpty();
    List<NodeInfo> drained = List.of(node("n1", NodeBaseState.NODE_IDLE, true, 0), node("n2", NodeBaseState.NODE_IDLE, false, 0));
    assertThat(fired(events.pass(ts, state(drained), 131))).containsExactly("1:n1", "2:n2"); // n2 idle since 100
    assertThat(fired(events.pass(ts, state(drained), 140))).isEmpty(); // PERM idle: once per idle period
    List<NodeInfo> down = List.of(node("n1", NodeBaseState.NODE_DOWN, true, 0), node("n2", NodeBaseState.NODE_IDLE, false, 0));
    assertThat(fired(events.pass(ts, state(down), 150))).isEmpty(); // down at 150, offset 20
    assertThat(fired(events.pass(ts, state(down), 165))).isEmpty();
    assertThat(fired(events.pass(ts, state(down), 170))).containsExactly("3:n1");
  }

  @Test
  void jobTriggersFireAtTheTimeLimitPlusOffsetAndAtTheEnd() {
    JobInfo running = JobInfo.newBuilder().setJobId(7).setState(JobState.RUNNING).setStartTime(1000)
        .setTimeLimitMin(10).addAllocation(NodeAllocation.newBuilder().setNode("n1")).build();
    List<TriggerInfo> ts = List.of(trigger(1, "job", "7", "time", -120, false), trigger(2, "job", "7", "fini", 0, false),
        trigger(3, "job", "7", "down", 0, false), trigger(4, "job", "8", "up", 0, false));
    assertThat(fired(events.pass(ts, state(idle("n1"), running), 1400))).isEmpty();
    TriggerEvents.Outcome o = events.pass(ts, state(idle("n1"), running), 1480);
    assertThat(fired(o)).containsExactly("1:7");
    assertThat(o.finished()).containsExactlyInAnyOrder(1, 4); // job 8 is gone: its trigger can never fire
    List<NodeInfo> down = List.of(node("n1", NodeBaseState.NODE_DOWN, false, 1));
    assertThat(fired(events.pass(ts, state(down, running), 1490))).containsExactly("1:7", "3:7");
    JobInfo ended = running.toBuilder().setState(JobState.NODE_FAIL).build();
    assertThat(fired(events.pass(ts, state(down, ended), 1500))).contains("2:7");
  }

  @Test
  void theTableKeepsTriggersAndIdsAcrossARestart(@TempDir Path dir) throws Exception {
    TriggerTable t = TriggerTable.load(dir);
    assertThat(t.add(trigger(0, "node", "*", "down", 0, false)).getId()).isEqualTo(1);
    assertThat(t.add(trigger(0, "job", "5", "fini", 0, false)).getId()).isEqualTo(2);
    t.removeIds(List.of(1));
    TriggerTable again = TriggerTable.load(dir);
    assertThat(again.all()).extracting(TriggerInfo::getId).containsExactly(2);
    assertThat(again.add(trigger(0, "node", "*", "up", 0, false)).getId()).isEqualTo(3);
    assertThat(again.removeIf(x -> x.getResId().equals("5"))).hasSize(1);
    assertThat(Files.exists(dir.resolve(TriggerTable.FILE + ".new"))).isFalse();
  }
}
