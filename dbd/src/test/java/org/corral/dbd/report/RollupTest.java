package org.corral.dbd.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.ClusterUsage;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.UsageReportReply;
import org.corral.protocol.msg.UsageReportRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The usage rollup on every supported database: the reference recording's hour comes out as
 * Slurm 22.05's own rollup stored it (its database dump), jobs spanning hour, day and month
 * boundaries are split at them, rolling up again changes nothing, late records are taken in,
 * and a report over months, days and hours adds up the same as over hours alone.
 */
class RollupTest {
  static Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  static final long DAY = 1_795_478_400L; // 2026-11-24T00:00:00Z
  static final long REGISTERED = 1_795_480_386L; // "Cluster Registered TRES" 1=32

  /**
   * The reference's job table (db-dump-original.sql.gz): job id, uid, account, allocated CPUs,
   * requested CPUs, submit, eligible, start, end.
   */
  static final Object[][] REFERENCE_JOBS = {
      {1, 1001, "physics", 1, 1, 1795481210, 1795481210, 1795481210, 1795481210},
      {2, 1001, "physics", 1, 1, 1795481221, 1795481221, 1795481222, 1795481223},
      {3, 1002, "theory", 1, 1, 1795481221, 1795481221, 1795481222, 1795481236},
      {5, 1001, "physics", 1, 1, 1795481221, 1795481222, 1795481222, 1795481287},
      {6, 1001, "physics", 2, 2, 1795481222, 1795481222, 1795481222, 1795481224},
      {16, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481224},
      {17, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481225},
      {7, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481224},
      {8, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481235},
      {9, 1002, "theory", 1, 1, 1795481222, 1795481222, 1795481222, 1795481236},
      {10, 1001, "theory", 2, 2, 1795481222, 1795481222, 1795481222, 1795481225},
      {11, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481223},
      {12, 1002, "theory", 1, 1, 1795481222, 1795481222, 1795481222, 1795481225},
      {13, 0, "root", 1, 1, 1795481222, 1795481222, 1795481222, 1795481223},
      {14, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481223},
      {15, 1001, "physics", 1, 1, 1795481222, 1795481222, 1795481222, 1795481223},
      {4, 1001, "physics", 0, 1, 1795481221, 0, 0, 1795481236},
      {18, 1001, "physics", 1, 1, 1795481262, 1795481262, 1795481262, 1795481267},
      {19, 0, "root", 1, 1, 1795481336, 1795481336, 1795481336, 1795481336},
      {20, 1001, "physics", 4, 4, 1795481336, 1795481336, 1795481336, 1795481336},
      {21, 1002, "theory", 1, 1, 1795481336, 1795481336, 1795481337, 1795481358},
      {22, 1001, "physics", 0, 1, 1795481336, 0, 0, 1795481358},
      {23, 1001, "physics", 0, 1, 1795481336, 1795484936, 0, 1795481358},
      {24, 1002, "theory", 0, 4, 1795481355, 1795481355, 0, 1795481358},
      {25, 1001, "physics", 4, 4, 1795481377, 1795481377, 1795481378, 1795481738},
      {26, 1002, "theory", 8, 8, 1795481377, 1795481377, 1795481378, 1795481738},
      {27, 1001, "theory", 2, 2, 1795481377, 1795481377, 1795481378, 1795481738},
  };

  private final AtomicLong events = new AtomicLong();

  private AcctEvent job(int id, int uid, String account, int cpus, int reqCpus, long submit, long eligible,
      long start, long end) {
    String user = switch (uid) {
      case 0 -> "root";
      case 1001 -> "alice";
      default -> "bob";
    };
    JobState state = end == 0 ? (start == 0 ? JobState.PENDING : JobState.RUNNING) : JobState.COMPLETED;
    return AcctEvent.newBuilder().setEventId(events.incrementAndGet()).setJob(AcctJob.newBuilder().setJobId(id)
        .setUserId(uid).setUserName(user).setAccount(account).setPartition("debug").setName("j" + id)
        .setState(state).setNumCpus(cpus).setReqCpus(reqCpus).setSubmitTime(submit).setEligibleTime(eligible)
        .setStartTime(start).setEndTime(end)).build();
  }

  private List<AcctEvent> referenceJobs() {
    List<AcctEvent> out = new ArrayList<>();
    for (Object[] r : REFERENCE_JOBS) {
      out.add(job((Integer) r[0], (Integer) r[1], (String) r[2], (Integer) r[3], (Integer) r[4],
          ((Integer) r[5]).longValue(), ((Integer) r[6]).longValue(), ((Integer) r[7]).longValue(),
          ((Integer) r[8]).longValue()));
    }
    return out;
  }

  private static Rollups rollups(Database db, JobStore jobs, long now) {
    return new Rollups(db, jobs, Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC), ZoneOffset.UTC);
  }

  /** Every usage row, as text, to compare whole tables. */
  private static List<String> rows(Database db) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connection()) {
      for (String q : List.of("SELECT cluster, span, time_start, cpus, alloc_secs, down_secs, pdown_secs, idle_secs,"
          + " plan_secs, over_secs, total_secs FROM corral_usage_cluster ORDER BY cluster, span, time_start",
          "SELECT cluster, span, time_start, account, user_name, alloc_secs FROM corral_usage_assoc"
              + " ORDER BY cluster, span, time_start, account, user_name")) {
        try (PreparedStatement st = c.prepareStatement(q); ResultSet rs = st.executeQuery()) {
          int n = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= n; i++) {
              b.append(rs.getString(i)).append(i < n ? " " : "");
            }
            out.add(b.toString());
          }
        }
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void theReferenceHourComesOutAsSlurmRolledItUp(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      jobs.store("reference", referenceJobs());
      long now = DAY + 3600 + 5 * 60; // 01:05, after the hourly rollup
      Rollups r = rollups(db, jobs, REGISTERED);
      r.registerCpus("reference", 32);
      rollups(db, jobs, now).runOnce();
      // reference_usage_hour_table, TRES 1 (cpu): 32 CPUs, alloc 5197, down 0, pdown 0, idle 46422, resv 29
      // reference_assoc_usage_hour_table, TRES 1: root/root 1, alice/theory 726, alice/physics 1538, bob/theory 2932
      assertThat(rows(db)).containsExactly(
          "reference h " + DAY + " 32 5197 0 0 46422 29 0 51648",
          "reference h " + DAY + " physics alice 1538",
          "reference h " + DAY + " root root 1",
          "reference h " + DAY + " theory alice 726",
          "reference h " + DAY + " theory bob 2932");
      ReportService report = new ReportService(rollups(db, jobs, now), jobs, "reference",
          Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
      UsageReportReply reply = report.report(UsageReportRequest.newBuilder().setStart(DAY).setEnd(DAY + 3600)
          .setJobSizes(true).build());
      assertThat(reply.getClustersList()).containsExactly(ClusterUsage.newBuilder().setCluster("reference")
          .setCpus(32).setAllocSecs(5197).setIdleSecs(46422).setPlannedSecs(29).setTotalSecs(51648).build());
      assertThat(reply.getAssocsList()).extracting(AssocUsage::getAllocSecs).containsExactly(1538L, 1L, 726L, 2932L);
      assertThat(reply.getJobSizesList().stream().mapToLong(s -> s.getAllocSecs()).sum()).isEqualTo(5197);
      // the day before: nothing rolled up, no rows
      assertThat(report.report(UsageReportRequest.newBuilder().setStart(DAY - 86400).setEnd(DAY).build())
          .getClustersCount()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void jobsAreSplitAtHourDayAndMonthBoundaries(Storage storage) throws Exception {
    long nov30 = DAY + 6 * 86400; // 2026-11-30T00:00Z
    long dec1 = nov30 + 86400;
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, nov30).registerCpus("c", 10);
      // 2 CPUs from Nov 30 22:30 to Dec 1 01:15; eligible at 22:00, so 30 min planned
      jobs.store("c", List.of(job(1, 1001, "a", 2, 2, dec1 - 7200, dec1 - 7200, dec1 - 5400, dec1 + 4500)));
      rollups(db, jobs, dec1 + 3 * 3600 + 10).runOnce();
      Map<String, String> used = new TreeMap<>();
      for (String row : rows(db)) {
        String[] f = row.split(" ");
        if (f.length == 11 && (!f[4].equals("0") || !f[8].equals("0"))) {
          used.put(f[1] + " " + (Long.parseLong(f[2]) - dec1) / 3600, f[4] + " " + f[8] + " " + f[10]);
        }
      }
      // span, hours from Dec 1 00:00 -> allocated, planned, reported CPU-seconds
      assertThat(used).containsExactlyInAnyOrderEntriesOf(Map.of(
          "h -2", "3600 3600 36000", // Nov 30 22:00: 30 min waiting, 30 min running, 2 CPUs
          "h -1", "7200 0 36000",
          "h 0", "7200 0 36000",
          "h 1", "1800 0 36000", // ended 01:15
          "d -24", "10800 3600 864000", // Nov 30; Dec 1 has not ended
          "m -720", "10800 3600 864000")); // November (registered on the 30th)
      assertThat(rows(db)).filteredOn(r -> r.contains(" a alice ")).hasSize(6);
      // rolled up again, at the same or a later time in the same hour: the same rows
      List<String> before = rows(db);
      rollups(db, jobs, dec1 + 3 * 3600 + 10).runOnce();
      rollups(db, jobs, dec1 + 3 * 3600 + 1800).runOnce();
      assertThat(rows(db)).isEqualTo(before);
      // and from scratch (the marks forgotten): the same rows again
      try (Connection c = db.connection(); PreparedStatement st = c.prepareStatement("DELETE FROM corral_rollup")) {
        st.executeUpdate();
      }
      rollups(db, jobs, dec1 + 3 * 3600 + 10).runOnce();
      assertThat(rows(db)).isEqualTo(before);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void aRecordArrivingLateIsRolledIntoTheHoursAlreadyDone(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, DAY).registerCpus("c", 4);
      // running when the first rollup happens: counted to the end of the last hour done
      jobs.store("c", List.of(job(1, 1001, "a", 1, 1, DAY + 600, DAY + 600, DAY + 600, 0)));
      rollups(db, jobs, DAY + 2 * 3600 + 60).runOnce();
      ReportService report = new ReportService(rollups(db, jobs, DAY), jobs, "c", Clock.systemUTC());
      UsageReportRequest day = UsageReportRequest.newBuilder().setStart(DAY).setEnd(DAY + 86400).build();
      assertThat(report.report(day).getClusters(0).getAllocSecs()).isEqualTo(3000 + 3600);
      // its end arrives hours later (slurmdbd was away), and another job's whole record
      jobs.store("c", List.of(job(1, 1001, "a", 1, 1, DAY + 600, DAY + 600, DAY + 600, DAY + 3600 + 60),
          job(2, 1002, "b", 2, 2, DAY + 100, DAY + 100, DAY + 100, DAY + 200)));
      rollups(db, jobs, DAY + 4 * 3600 + 60).runOnce();
      UsageReportReply r = report.report(day);
      assertThat(r.getClusters(0).getAllocSecs()).isEqualTo(3000 + 60 + 200);
      assertThat(r.getClusters(0).getTotalSecs()).isEqualTo(4 * 4 * 3600);
      assertThat(r.getAssocsList()).extracting(a -> a.getAccount() + " " + a.getUser() + " " + a.getAllocSecs())
          .containsExactly("a alice 3060", "b bob 200");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void pendingArrayTasksWaitEachAndJobsWithoutAnAssociationHaveNoAssociationUsage(Storage storage)
      throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, DAY).registerCpus("c", 8);
      AcctEvent array = job(5, 1001, "a", 0, 2, DAY + 100, DAY + 100, 0, DAY + 200);
      array = array.toBuilder().setJob(array.getJob().toBuilder().setArrayJobId(5).setArrayTasks("1-3")).build();
      jobs.store("c", List.of(array, job(6, 1002, "", 1, 1, DAY + 100, DAY + 100, DAY + 100, DAY + 400)));
      rollups(db, jobs, DAY + 3600 + 1).runOnce();
      assertThat(rows(db)).containsExactly("c h " + DAY + " 8 300 0 0 27900 600 0 28800");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void aWindowOfMonthsDaysAndHoursAddsUpAsItsHoursDo(Storage storage) throws Exception {
    long oct30 = DAY - 25 * 86400; // 2026-10-30T00:00Z
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, oct30).registerCpus("c", 8);
      List<AcctEvent> batch = new ArrayList<>();
      for (int i = 0; i < 60; i++) { // a job every 10 hours and 7 minutes, 1-3 CPUs, 0-5 h long
        long start = oct30 + i * 36_420L;
        batch.add(job(i + 1, 1001 + i % 2, i % 3 == 0 ? "a" : "b", 1 + i % 3, 1 + i % 3, start - 300, start - 300,
            start, start + (i % 6) * 3600 + 17));
      }
      jobs.store("c", batch);
      long now = DAY + 5 * 3600 + 1;
      rollups(db, jobs, now).runOnce();
      ReportService report = new ReportService(rollups(db, jobs, now), jobs, "c", Clock.systemUTC());
      // Oct 30 05:00 (hours) .. Oct 31 (a day) .. November (a month) .. Dec 1 03:00 (hours, not yet rolled up)
      UsageReportRequest wide = UsageReportRequest.newBuilder().setStart(oct30 + 5 * 3600).setEnd(DAY + 8 * 86400)
          .build();
      UsageReportReply r = report.report(wide);
      Usage hours = new Usage();
      UsageStore store = new UsageStore(db);
      try (Connection c = db.connection()) {
        store.read(c, "c", UsageStore.Span.HOUR, oct30 + 5 * 3600, DAY + 8 * 86400).values().forEach(hours::add);
      }
      assertThat(hours.alloc).isPositive();
      assertThat(r.getClusters(0).getAllocSecs()).isEqualTo(hours.alloc);
      assertThat(r.getClusters(0).getPlannedSecs()).isEqualTo(hours.planned);
      assertThat(r.getClusters(0).getIdleSecs()).isEqualTo(hours.idle);
      assertThat(r.getClusters(0).getTotalSecs()).isEqualTo(hours.total).isEqualTo(8L * (now / 3600 * 3600
          - oct30 - 5 * 3600));
      long byAssoc = r.getAssocsList().stream().mapToLong(AssocUsage::getAllocSecs).sum();
      assertThat(byAssoc).isEqualTo(hours.alloc);
    }
  }

  private static long isoToday(String t) {
    return t.equals("None") || t.equals("Unknown") ? 0 : Instant.parse(t + "Z").getEpochSecond();
  }

  /**
   * A second hour against the reference: its records of 2026-11-24 01:00-02:00 (resources
   * report/reference-replay-jobs.txt, 103 jobs, arrays with pending tasks, jobs without an
   * association) rolled up as the reference's slurmdbd rolled them up: the same allocated time,
   * association usage and reported time, and the same planned time. The reference also had
   * 2696 CPU-seconds of nodes down, which Corral's slurmdbd is not told of (its idle is that
   * much larger).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void theSecondReferenceHourComesOutAsItsRollup(Storage storage) throws Exception {
    List<AcctEvent> batch = new ArrayList<>();
    try (var in = RollupTest.class.getResourceAsStream("/report/reference-replay-jobs.txt")) {
      for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\\|", -1);
        int uid = switch (f[1]) {
          case "root" -> 0;
          case "alice" -> 1001;
          case "bob" -> 1002;
          default -> 2000;
        };
        long start = isoToday(f[7]);
        AcctEvent e = job(Integer.parseInt(f[0]), uid, f[2], start == 0 ? 0 : Integer.parseInt(f[3]),
            Integer.parseInt(f[4]), isoToday(f[5]), isoToday(f[6]), start, isoToday(f[8]));
        AcctJob.Builder j = e.getJob().toBuilder().setUserName(f[1]);
        int bracket = f[10].indexOf("_[");
        if (bracket > 0) { // an array's record for its tasks still pending: 43_[1-3]
          j.setArrayJobId(Integer.parseInt(f[10].substring(0, bracket)))
              .setArrayTasks(f[10].substring(bracket + 2, f[10].length() - 1));
        }
        batch.add(e.toBuilder().setJob(j).build());
      }
    }
    assertThat(batch).hasSize(103);
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      jobs.store("reference", batch);
      long registered = DAY + 3600 + 3 * 60 + 22; // 108736 = 32 x 3398 reported seconds
      rollups(db, jobs, registered).registerCpus("reference", 32);
      long now = DAY + 2 * 3600 + 60;
      rollups(db, jobs, now).runOnce();
      ReportService report = new ReportService(rollups(db, jobs, now), jobs, "reference", Clock.systemUTC());
      UsageReportReply r = report.report(UsageReportRequest.newBuilder().setStart(DAY + 3600).setEnd(DAY + 7200)
          .build());
      ClusterUsage c = r.getClusters(0);
      assertThat(c.getAllocSecs()).isEqualTo(6198);
      assertThat(c.getTotalSecs()).isEqualTo(108736);
      assertThat(c.getPlannedSecs()).isEqualTo(1317);
      assertThat(c.getIdleSecs()).isEqualTo(98525 + 2696);
      assertThat(r.getAssocsList()).extracting(a -> a.getAccount() + " " + a.getUser() + " " + a.getAllocSecs())
          .containsExactlyInAnyOrder("theory bob 2923", "physics alice 1552", "theory alice 728", "root root 241");
    }
  }

  private AcctEvent nodeEvent(String node, long start, long end, int state) {
    return AcctEvent.newBuilder().setEventId(events.incrementAndGet()).setNodeEvent(org.corral.protocol.msg.NodeEvent
        .newBuilder().setNode(node).setTimeStart(start).setTimeEnd(end).setState(state).setReason("r")
        .setTres("billing=8,cpu=8,mem=4000M")).build();
  }

  private AcctEvent resv(String name, long start, long end, String nodes, int cpus, boolean deleted,
      String... flags) {
    return AcctEvent.newBuilder().setEventId(events.incrementAndGet()).setReservation(org.corral.protocol.msg
        .ResvPeriod.newBuilder().setName(name).setTimeStart(start).setTimeEnd(end).setNodes(nodes).setCpus(cpus)
        .addAllFlags(List.of(flags)).setDeleted(deleted)).build();
  }

  /**
   * PLND Down as Slurm 22.05's rollup counts it: a MAINT reservation's CPU time; a node event's
   * time inside a MAINT reservation on its node goes with the reservation's, not to Down; a FAIL
   * event is Down; an event with the MAINT flag is left out; a FUTURE node is planned down. A
   * reservation that is not MAINT, and one deleted before it began, add nothing; one deleted
   * while it lasted counts until then.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void maintenanceReservationsAndFutureNodesArePlannedDown(Storage storage) throws Exception {
    long h = DAY + 8 * 3600;
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, h - 3600).registerCpus("c", 32);
      jobs.store("c", List.of(
          resv("maint", h + 600, h + 780, "n4", 8, false, "MAINT", "SPEC_NODES"),
          resv("other", h + 600, h + 900, "n1", 8, false, "SPEC_NODES"),
          resv("gone", h + 1000, h + 2000, "n2", 8, true, "MAINT"),
          nodeEvent("n3", h + 660, h + 780, 8194), // FAIL: 960 down
          nodeEvent("n4", h + 700, h + 840, 1), // DOWN, 80 s of it inside "maint": 60 s x 8 down
          nodeEvent("n4", h + 900, h + 960, 32801), // DOWN$ (MAINT flag): left out
          nodeEvent("n2", h + 1200, h + 1300, 6), // FUTURE: 800 planned down
          resv("cut", h + 2000, h + 3000, "n1", 8, false, "MAINT"),
          AcctEvent.newBuilder().setEventId(events.incrementAndGet()).setReservation(org.corral.protocol.msg
              .ResvPeriod.newBuilder().setName("cut").setAt(h + 2100).setTimeEnd(h + 2100)).build())); // 100 s x 8
      rollups(db, jobs, h + 3600 + 60).runOnce();
      ReportService report = new ReportService(rollups(db, jobs, h + 3660), jobs, "c", Clock.systemUTC());
      ClusterUsage c = report.report(UsageReportRequest.newBuilder().setStart(h).setEnd(h + 3600).build())
          .getClusters(0);
      assertThat(c.getDownSecs()).isEqualTo(960 + 480);
      assertThat(c.getPlannedDownSecs()).isEqualTo(180 * 8 + 800 + 800);
      assertThat(c.getIdleSecs()).isEqualTo(32 * 3600 - 1440 - 3040);
      assertThat(c.getTotalSecs()).isEqualTo(32 * 3600);
    }
  }

  /**
   * The reference's hour 08 of 2026-11-24 (cli golden/sreport/record-plnd.sh): 32 CPUs, a MAINT
   * reservation on n4 (8 CPUs) 08:10-08:13 and n3 set FAIL 08:11-08:13, as its events and resv
   * tables held them. Its hourly rollup stored pdown_secs 1440 and down_secs 960.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void theReferenceHourWithAMaintenanceReservationAndAFailedNode(Storage storage) throws Exception {
    long h = 1_795_507_200L; // 2026-11-24T08:00:00Z
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore jobs = new JobStore(db);
      rollups(db, jobs, 1_795_504_174L).registerCpus("reference", 32);
      jobs.store("reference", List.of(resv("corral_maint", 1_795_507_800L, 1_795_507_980L, "n4", 8, false, "MAINT",
          "SPEC_NODES"), nodeEvent("n3", 1_795_507_860L, 1_795_507_980L, 8194)));
      rollups(db, jobs, h + 3600 + 60).runOnce();
      ClusterUsage c = new ReportService(rollups(db, jobs, h + 3660), jobs, "reference", Clock.systemUTC())
          .report(UsageReportRequest.newBuilder().setStart(h).setEnd(h + 3600).build()).getClusters(0);
      assertThat(c.getPlannedDownSecs()).isEqualTo(1440);
      assertThat(c.getDownSecs()).isEqualTo(960);
    }
  }
}
