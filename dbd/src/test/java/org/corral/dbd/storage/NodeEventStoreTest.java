package org.corral.dbd.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.NodeEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Node events in every supported database: opened, closed, sent again, selected. */
class NodeEventStoreTest {
  static Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  static AcctEvent open(long id, String node, long start, int state, String reason, int uid) {
    return AcctEvent.newBuilder().setEventId(id).setNodeEvent(NodeEvent.newBuilder().setNode(node)
        .setTimeStart(start).setState(state).setReason(reason).setReasonUid(uid)
        .setTres("billing=8,cpu=8,mem=4000M")).build();
  }

  static AcctEvent close(long id, String node, long end) {
    return AcctEvent.newBuilder().setEventId(id).setNodeEvent(NodeEvent.newBuilder().setNode(node).setTimeEnd(end))
        .build();
  }

  static final EventQueryRequest ALL = EventQueryRequest.getDefaultInstance();

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void eventsOpenCloseAndAreStoredOnceWhateverIsSentAgain(Storage storage) throws Exception {
    int drained = NodeEvents.IDLE | NodeEvents.FLAG_DRAIN;
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      NodeEventStore events = new NodeEventStore(db);
      AcctEvent job = AcctEvent.newBuilder().setEventId(1).setJob(AcctJob.newBuilder().setJobId(5)
          .setSubmitTime(900).setAccount("a").setName("j")).build();
      // drained at 1000, down at 1010 (one closes, one opens in the same second), resumed at 1010 too
      List<AcctEvent> batch = List.of(job, open(2, "n4", 1000, drained, "corral maintenance", 0),
          close(3, "n4", 1010), open(4, "n4", 1010, NodeEvents.DOWN, "bad disk", 0), close(5, "n4", 1010));
      assertThat(jobs.store("c", batch)).isEqualTo(5);
      jobs.store("c", batch); // the acknowledgement was lost: all of it again
      jobs.store("c", batch.subList(2, 3)); // a late copy of the first close leaves the second event alone
      assertThat(events.find(List.of("c"), ALL)).containsExactly(
          NodeEvent.newBuilder().setCluster("c").setNode("n4").setTimeStart(1000).setTimeEnd(1010).setState(drained)
              .setReason("corral maintenance").setTres("billing=8,cpu=8,mem=4000M").build(),
          NodeEvent.newBuilder().setCluster("c").setNode("n4").setTimeStart(1010).setTimeEnd(1010)
              .setState(NodeEvents.DOWN).setReason("bad disk").setTres("billing=8,cpu=8,mem=4000M").build());
      assertThat(jobs.find(new JobSelection())).hasSize(1); // node events never become job rows
      assertThat(jobs.storedThrough("c")).isEqualTo(5);
      // an open event stays open until its close comes
      jobs.store("c", List.of(open(6, "n1", 2000, NodeEvents.DOWN, "Not responding", 64030)));
      assertThat(events.find(List.of("c"), ALL.toBuilder().setOpenOnly(true).build()))
          .extracting(NodeEvent::getNode, NodeEvent::getTimeEnd, NodeEvent::getReasonUid)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", 0L, 64030));
      assertThat(events.find(List.of("other"), ALL)).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void queriesSelectByWindowNodeStateUserAndReason(Storage storage) throws Exception {
    String evil = "x'; DROP TABLE corral_node_event; --";
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      NodeEventStore events = new NodeEventStore(db);
      jobs.store("c", List.of(open(1, "n3", 100, NodeEvents.DOWN, "bad disk", 0), close(2, "n3", 200),
          open(3, "n4", 300, NodeEvents.IDLE | NodeEvents.FLAG_DRAIN, evil, 1000), close(4, "n4", 400),
          open(5, "n3", 500, NodeEvents.IDLE | NodeEvents.FLAG_FAIL, "fan noise", 0)));
      assertThat(events.find(List.of("c"), ALL)).extracting(NodeEvent::getTimeStart).containsExactly(100L, 500L, 300L);
      EventQueryRequest.Builder q = ALL.toBuilder();
      assertThat(events.find(List.of("c"), q.clone().setStart(200).setEnd(300).build()))
          .extracting(NodeEvent::getTimeStart).containsExactly(100L); // ended at the start: in; begun at the end: out
      assertThat(events.find(List.of("c"), q.clone().addNodes("n4").build())).hasSize(1);
      assertThat(events.find(List.of("c"), q.clone().addStates(NodeEvents.FLAG_DRAIN).build()))
          .extracting(NodeEvent::getNode).containsExactly("n4");
      assertThat(events.find(List.of("c"), q.clone().addStates(NodeEvents.DOWN).build()))
          .extracting(NodeEvent::getTimeStart).containsExactly(100L);
      assertThat(events.find(List.of("c"), q.clone().addUserIds(1000).build())).extracting(NodeEvent::getReason)
          .containsExactly(evil);
      assertThat(events.find(List.of("c"), q.clone().addReasons("FAN").build())).hasSize(1);
      assertThat(events.find(List.of("c"), q.clone().addReasons("' OR '1'='1").build())).isEmpty();
      assertThat(events.find(List.of("c"), q.clone().setClusterEvents(true).build())).isEmpty();
      assertThat(events.find(List.of("c"), q.clone().setMinCpus(9).build())).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void downAndDrainedTimeIsTheRollupsDownTime(Storage storage) throws Exception {
    long hour = 1_795_500_000L / 3600 * 3600;
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      java.time.Clock registered = java.time.Clock.fixed(java.time.Instant.ofEpochSecond(hour - 3600),
          java.time.ZoneOffset.UTC);
      new org.corral.dbd.report.Rollups(db, jobs, registered, java.time.ZoneOffset.UTC).registerCpus("c", 16);
      // n1 (8 CPUs) drained for the hour's last 30 minutes and into the next; n2 down 10 minutes
      jobs.store("c", List.of(open(1, "n1", hour + 1800, NodeEvents.IDLE | NodeEvents.FLAG_DRAIN, "m", 0),
          open(2, "n2", hour + 600, NodeEvents.DOWN, "d", 0), close(3, "n2", hour + 1200)));
      java.time.Clock later = java.time.Clock.fixed(java.time.Instant.ofEpochSecond(hour + 3600 + 60),
          java.time.ZoneOffset.UTC);
      org.corral.dbd.report.Rollups rollups = new org.corral.dbd.report.Rollups(db, jobs, later, java.time.ZoneOffset.UTC);
      rollups.runOnce();
      var report = new org.corral.dbd.report.ReportService(rollups, jobs, "c", later);
      var usage = report.report(org.corral.protocol.msg.UsageReportRequest.newBuilder().setStart(hour)
          .setEnd(hour + 3600).build()).getClusters(0);
      assertThat(usage.getDownSecs()).isEqualTo(1800 * 8 + 600 * 8);
      assertThat(usage.getIdleSecs()).isEqualTo(3600 * 16 - 1800 * 8 - 600 * 8);
      // the drain ends later: the hours are rolled up again with it
      jobs.store("c", List.of(close(4, "n1", hour + 2400)));
      rollups.runOnce();
      usage = report.report(org.corral.protocol.msg.UsageReportRequest.newBuilder().setStart(hour)
          .setEnd(hour + 3600).build()).getClusters(0);
      assertThat(usage.getDownSecs()).isEqualTo(600 * 8 + 600 * 8);
    }
  }
}
