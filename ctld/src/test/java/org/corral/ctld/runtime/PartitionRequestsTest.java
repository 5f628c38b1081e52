package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.SnapshotCodec;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionUpdateRequest;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** scontrol create/update/delete partition decided against the state, journaled and snapshotted. */
class PartitionRequestsTest {
  private static final Peer ROOT = new Peer(0, 0, "root", null);
  private static final Peer ALICE = new Peer(1000, 1000, "alice", null);
  private final Clock clock = Clock.fixed(Instant.ofEpochSecond(5000), ZoneOffset.UTC);
  private final PartitionRequests requests = new PartitionRequests(new Authorizer(450), clock);
  private final ClusterState s = TestStates.cluster(4, 8, 4000);

  private static PartitionUpdateRequest req(boolean create, Map<String, String> fields) {
    return PartitionUpdateRequest.newBuilder().setCreate(create).putAllFields(fields).build();
  }

  private ClusterState applied(ClusterState from, Decision<Void> d) {
    ClusterState out = from;
    for (Command c : d.commands()) {
      out = StateMachine.apply(out, c);
    }
    return out;
  }

  private static SlurmError errorOf(ThrowingCallable c) {
    return catchThrowableOfType(SlurmException.class, c).error();
  }

  @Test
  void createdPartitionHasSlurmsDefaultsItsTotalsAndItsNodesKnowIt() {
    ClusterState t = applied(s, requests.createOrUpdate(ROOT,
        req(true, Map.of("partitionname", "extra", "nodes", "n[1-2]", "maxtime", "10", "state", "DOWN")), s));
    PartitionInfo p = t.partition("extra").orElseThrow();
    assertThat(p.getNodes()).isEqualTo("n[1-2]");
    assertThat(p.getMaxTimeMin()).isEqualTo(10);
    assertThat(p.getState()).isEqualTo("DOWN");
    assertThat(p.getMinNodes()).isEqualTo(1);
    assertThat(p.getPriorityTier()).isEqualTo(1);
    assertThat(Integer.toUnsignedLong(p.getMaxNodes())).isEqualTo(SlurmDuration.INFINITE);
    assertThat(p.getTotalCpus()).isEqualTo(16);
    assertThat(p.getTotalNodes()).isEqualTo(2);
    assertThat(t.node("n1").orElseThrow().getPartitionsList()).containsExactly("debug", "extra");
    assertThat(t.node("n3").orElseThrow().getPartitionsList()).containsExactly("debug");
    assertThat(t.partitions()).extracting(PartitionInfo::getName).containsExactly("debug", "extra");
  }

  @Test
  void updateChangesOnlyWhatItNamesAndDefaultMovesToTheNewest() {
    ClusterState t = applied(s, requests.createOrUpdate(ROOT,
        req(true, Map.of("partitionname", "p1", "nodes", "n1")), s));
    ClusterState u = applied(t, requests.createOrUpdate(ROOT,
        req(false, Map.of("partitionname", "p1", "default", "yes", "nodes", "ALL", "priority", "5")), t));
    PartitionInfo p1 = u.partition("p1").orElseThrow();
    assertThat(p1.getIsDefault()).isTrue();
    assertThat(p1.getNodeNamesList()).containsExactly("n1", "n2", "n3", "n4");
    assertThat(p1.getPriorityTier()).isEqualTo(5);
    assertThat(p1.getPriorityJobFactor()).isEqualTo(5);
    assertThat(p1.getMinNodes()).isEqualTo(1);
    assertThat(u.partition("debug").orElseThrow().getIsDefault()).isFalse();
    assertThat(u.defaultPartition().orElseThrow().getName()).isEqualTo("p1");
  }

  @Test
  void refusalsUseSlurmsErrors() {
    assertThat(errorOf(() -> requests.createOrUpdate(ALICE, req(false, Map.of("partitionname", "debug",
        "maxtime", "5")), s))).isEqualTo(SlurmError.USER_ID_MISSING);
    assertThat(errorOf(() -> requests.delete(ALICE, "debug", s))).isEqualTo(SlurmError.USER_ID_MISSING);
    assertThat(errorOf(() -> requests.createOrUpdate(ROOT, req(true, Map.of("partitionname", "debug")), s)))
        .isEqualTo(SlurmError.INVALID_PARTITION_NAME);
    assertThat(errorOf(() -> requests.createOrUpdate(ROOT, req(false, Map.of("partitionname", "nosuch",
        "maxtime", "5")), s))).isEqualTo(SlurmError.INVALID_PARTITION_NAME);
    assertThat(errorOf(() -> requests.createOrUpdate(ROOT, req(true, Map.of("partitionname", "p4",
        "nodes", "nosuch")), s))).isEqualTo(SlurmError.INVALID_NODE_NAME);
    assertThat(errorOf(() -> requests.createOrUpdate(ROOT, req(false, Map.of("partitionname", "debug",
        "tresbillingweights", "zz")), s))).isEqualTo(SlurmError.INVALID_TRES_BILLING_WEIGHTS);
    assertThat(errorOf(() -> requests.createOrUpdate(ROOT, req(false, Map.of("partitionname", "debug",
        "maxtime", "abc")), s))).isEqualTo(SlurmError.INVALID_MESSAGE);
    assertThat(errorOf(() -> requests.delete(ROOT, "nosuch", s))).isEqualTo(SlurmError.INVALID_PARTITION_NAME);
  }

  @Test
  void deleteIsRefusedWhileAJobUsesThePartition() {
    ClusterState withJob = TestStates.submit(s, 7, TestStates.spec().build(), 200);
    assertThat(errorOf(() -> requests.delete(ROOT, "debug", withJob))).isEqualTo(SlurmError.PARTITION_IN_USE);
    ClusterState t = applied(s, requests.delete(ROOT, "debug", s));
    assertThat(t.partitions()).isEmpty();
    assertThat(t.node("n1").orElseThrow().getPartitionsList()).isEmpty();
  }

  @Test
  void theTableSurvivesTheJournalAndTheSnapshot() throws Exception {
    Decision<Void> d = requests.createOrUpdate(ROOT, req(true, Map.of("partitionname", "extra", "nodes", "n3")), s);
    Command c = d.commands().get(0);
    assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
    ClusterState t = applied(s, d);
    ClusterState back = SnapshotCodec.decode(SnapshotCodec.encode(t, 1));
    assertThat(back.partitions()).isEqualTo(t.partitions());
  }

  @Test
  void aStartTakesSlurmConfsPartitionsUnlessToldToRecoverTheSaved() {
    ClusterState saved = applied(s, requests.createOrUpdate(ROOT,
        req(false, Map.of("partitionname", "debug", "maxtime", "30")), s));
    // s holds slurm.conf's table; saved the one scontrol changed
    Decision<Void> plain = StartPartitions.decide(saved.partitions(), false, s, 6000);
    assertThat(applied(s, plain).partition("debug").orElseThrow().getMaxTimeMin()).isEqualTo(-1);
    Decision<Void> recover = StartPartitions.decide(saved.partitions(), true, s, 6000);
    assertThat(applied(s, recover).partition("debug").orElseThrow().getMaxTimeMin()).isEqualTo(30);
    assertThat(StartPartitions.decide(s.partitions(), false, s, 6000).commands()).isEmpty();
  }
}
