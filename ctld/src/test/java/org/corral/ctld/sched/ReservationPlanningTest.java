package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.ReservationInfo;
import org.junit.jupiter.api.Test;

/** Reservations in the planner: who may use reserved nodes, and when. */
class ReservationPlanningTest {
  private static ClusterState reserve(ClusterState s, String name, long start, long end, List<String> nodes,
      String... flags) {
    ReservationInfo r = ReservationInfo.newBuilder().setName(name).setStartTime(start).setEndTime(end)
        .addAllNodeNames(nodes).addUsers("alice").addAllFlags(List.of(flags)).build();
    return StateMachine.apply(s, new Command.CreateReservation(r, 1000));
  }

  private static List<String> nodesOf(Plan p, int job) {
    return p.starts().stream().filter(st -> st.jobId() == job)
        .flatMap(st -> st.allocation().stream().map(NodeAllocation::getNode)).toList();
  }

  private static String reason(Plan p, int job) {
    return p.waiting().get(job).reason();
  }

  @Test
  void jobsOutsideAnActiveReservationNeverLandOnItsNodes() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "r", 1000, 9000, List.of("n1"));
    for (int i = 1; i <= 3; i++) { // 8 CPUs each: n2 holds one, n1 is reserved
      s = TestStates.submit(s, i, TestStates.spec().setNumTasks(8).build(), 1000 + i);
    }
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(1);
    assertThat(nodesOf(p, 1)).containsExactly("n2");
    assertThat(reason(p, 2)).isEqualTo("Resources");
  }

  @Test
  void jobsInAReservationRunOnlyOnItsNodes() {
    ClusterState s = TestStates.cluster(3, 8, 4000);
    s = reserve(s, "r", 1000, 9000, List.of("n3"));
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("r").build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setReservation("r").setNumTasks(8).build(), 1002);
    Plan p = Planner.plan(s, 2000);
    assertThat(nodesOf(p, 1)).containsExactly("n3");
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(1); // n1, n2 are not its
  }

  @Test
  void aJobInAReservationIsPlannedToEndWithItSoABackfilledOutsiderDoesNotBlockIt() {
    ClusterState s = TestStates.cluster(2, 2, 4000);
    s = reserve(s, "r", 1000, 5600, List.of("n2"));
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(2).setTimeLimitMin(600).build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setNumTasks(2).setTimeLimitMin(600).build(), 1002);
    s = TestStates.submit(s, 3, TestStates.spec().setReservation("r").setNumTasks(2).setTimeLimitMin(600).build(),
        1003);
    Plan p = Planner.plan(s, 2000); // job 2 is planned on n2 from the reservation's end
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(1, 3);
    assertThat(nodesOf(p, 3)).containsExactly("n2");
  }

  @Test
  void aJobWaitsForItsReservationToBegin() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = reserve(s, "later", 5000, 9000, List.of("n1"));
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("later").build(), 1001);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).isEmpty();
    assertThat(reason(p, 1)).isEqualTo("Reservation");
    assertThat(nodesOf(Planner.plan(s, 5000), 1)).containsExactly("n1");
  }

  @Test
  void backfillDoesNotStartAJobWhoseLimitRunsIntoAnUpcomingWindow() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = reserve(s, "soon", 2000 + 1800, 2000 + 7200, List.of("n1")); // begins in 30 minutes
    s = TestStates.submit(s, 1, TestStates.spec().setTimeLimitMin(60).build(), 1001);
    s = TestStates.submit(s, 2, TestStates.spec().setTimeLimitMin(20).build(), 1002);
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).extracting(Command.StartJob::jobId).containsExactly(2);
    assertThat(p.waiting().get(1).expectedStart()).isEqualTo(2000 + 7200); // after the window
  }

  @Test
  void maintenanceAndNamedReservedNodesGiveSlurmsReasons() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "m", 1000, 9000, List.of("n1"), "MAINT");
    s = TestStates.submit(s, 1, TestStates.spec().setMinNodes(2).build(), 1001);
    assertThat(reason(Planner.plan(s, 2000), 1)).isEqualTo(ReservationWindows.MAINTENANCE);

    ClusterState t = reserve(TestStates.cluster(2, 8, 4000), "r", 1000, 9000, List.of("n1"));
    t = TestStates.submit(t, 1, TestStates.spec().setReqNodes("n1").build(), 1001);
    assertThat(reason(Planner.plan(t, 2000), 1)).isEqualTo(ReservationWindows.RESERVED_FOR_OTHERS);
  }

  @Test
  void flexLetsItsJobsUseNodesOutside() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "f", 1000, 9000, List.of("n1"), "FLEX");
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("f").setMinNodes(2).build(), 1001);
    assertThat(nodesOf(Planner.plan(s, 2000), 1)).containsExactly("n1", "n2");
  }

  @Test
  void aJobInAReservationThatIsGoneWaitsWithReservationDeleted() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("gone").build(), 1001);
    assertThat(reason(Planner.plan(s, 2000), 1)).isEqualTo("ReservationDeleted");
  }

  @Test
  void recurringReservationsRollForwardAndOthersGoAtTheirEnd() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "daily", 1000, 2000, List.of("n1"), "DAILY");
    s = reserve(s, "weekly", 1000, 2000, List.of("n2"), "WEEKLY");
    s = reserve(s, "once", 1000, 2000, List.of("n2"), "OVERLAP");
    long now = 2000 + 3 * 86400 + 5; // three days and a bit later
    for (Command c : ReservationCalendar.due(s, now)) {
      s = StateMachine.apply(s, c);
    }
    assertThat(s.reservations().named("once")).isEmpty();
    ReservationInfo daily = s.reservations().named("daily").orElseThrow();
    assertThat(daily.getStartTime()).isEqualTo(1000 + 4 * 86400);
    assertThat(daily.getEndTime()).isEqualTo(2000 + 4 * 86400);
    assertThat(s.reservations().named("weekly").orElseThrow().getStartTime()).isEqualTo(1000 + 7 * 86400);
    assertThat(ReservationCalendar.due(s, now)).isEmpty();
  }

  @Test
  void recurringReservationsMoveToTheirNextOccurrence() {
    long friday = 1795773600L; // 2026-11-27T10:00Z, a Friday
    long day = 86400;
    record Recurs(String flags, long start, long shift) {}
    for (Recurs c : List.of(
        new Recurs("HOURLY", friday, 3600),
        new Recurs("HOURLY,DAILY", friday, 3600),
        new Recurs("DAILY", friday, day),
        new Recurs("WEEKDAY", friday, 3 * day), // to Monday
        new Recurs("WEEKEND", friday, day),
        new Recurs("WEEKEND", friday + 2 * day, 6 * day), // Sunday to the next Saturday
        new Recurs("WEEKDAY,WEEKEND", friday, day),
        new Recurs("WEEKLY", friday, 7 * day),
        new Recurs("MAINT", friday, 0))) {
      ReservationInfo r = ReservationInfo.newBuilder().setName("r").setStartTime(c.start())
          .setEndTime(c.start() + 3600).addAllFlags(List.of(c.flags().split(","))).build();
      assertThat(ReservationCalendar.shift(r, c.start() + 3600, java.time.ZoneOffset.UTC)).as(c.toString())
          .isEqualTo(c.shift());
    }
  }

  @Test
  void aJobStillRunningWhenItsReservationEndsHasOutlivedIt() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = reserve(s, "r", 1000, 3000, List.of("n1"));
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("r").build(), 1001);
    for (Command c : PlanCheck.accept(s, Planner.plan(s, 2000), 2000)) {
      s = StateMachine.apply(s, c);
    }
    var job = s.job(1).orElseThrow().getInfo();
    assertThat(ReservationCalendar.outlived(s, job, 2999)).isFalse();
    assertThat(ReservationCalendar.outlived(s, job, 3000)).isTrue();
  }

  /** One case: a reservation on n1 (alice's), the job's user, where it runs and in which reservation. */
  private record Magnetic(String what, long resvStart, String flags, String user, int tasksBefore, String node,
      String reservation) {}

  @Test
  void magneticReservationsDrawInTheJobsTheyAdmit() {
    List<Magnetic> cases = List.of(
        new Magnetic("admitted: drawn in though n2 is free", 1000, "MAGNETIC", "alice", 0, "n1", "r"),
        new Magnetic("not admitted: stays outside", 1000, "MAGNETIC", "bob", 0, "n2", ""),
        new Magnetic("no room in it: runs outside", 1000, "MAGNETIC", "alice", 8, "n2", ""),
        new Magnetic("not begun: runs outside", 5000, "MAGNETIC", "alice", 0, "n2", ""),
        new Magnetic("not magnetic: runs outside", 1000, "", "alice", 0, "n2", ""));
    for (Magnetic c : cases) {
      ClusterState s = TestStates.cluster(2, 8, 4000);
      s = c.flags().isEmpty() ? reserve(s, "r", c.resvStart(), 9000, List.of("n1"))
          : reserve(s, "r", c.resvStart(), 9000, List.of("n1"), c.flags());
      if (c.tasksBefore() > 0) { // alice's job in the reservation fills n1
        s = TestStates.submit(s, 9, TestStates.spec().setReservation("r").setNumTasks(c.tasksBefore()).build(), 1001);
        s = StateMachine.apply(s, new Command.StartJob(9, 1500, Planner.plan(s, 1500).starts().get(0).allocation()));
      }
      int uid = c.user().equals("alice") ? 1000 : 1001;
      s = StateMachine.apply(s, new Command.SubmitJob(1, 1900, uid, c.user(), uid, c.user(), TestStates.spec().build()));
      for (Command cmd : PlanCheck.accept(s, Planner.plan(s, 2000), 2000)) {
        s = StateMachine.apply(s, cmd);
      }
      var job = s.job(1).orElseThrow().getInfo();
      assertThat(job.getNodes()).as(c.what()).isEqualTo(c.node());
      assertThat(job.getReservation()).as(c.what()).isEqualTo(c.reservation());
    }
  }

  @Test
  void accessFollowsUsersAndAccountsWithExclusions() {
    ReservationInfo users = ReservationInfo.newBuilder().addUsers("alice").addUsers("bob").build();
    ReservationInfo notBob = ReservationInfo.newBuilder().addUsers("-bob").build();
    ReservationInfo both = ReservationInfo.newBuilder().addUsers("alice").addAccounts("physics").build();
    assertThat(ReservationAccess.allows(users, "bob", "")).isTrue();
    assertThat(ReservationAccess.allows(users, "root", "")).isFalse();
    assertThat(ReservationAccess.allows(notBob, "alice", "")).isTrue();
    assertThat(ReservationAccess.allows(notBob, "bob", "")).isFalse();
    assertThat(ReservationAccess.allows(both, "alice", "physics")).isTrue();
    assertThat(ReservationAccess.allows(both, "alice", "chemistry")).isFalse();
  }

  private static ClusterState running(ClusterState s, int id, String node, int cpus, int minutes, String resv) {
    s = TestStates.submit(s, id, TestStates.spec().setReservation(resv).setNumTasks(cpus).setTimeLimitMin(minutes)
        .build(), 1001);
    return StateMachine.apply(s, new Command.StartJob(id, 1000, List.of(NodeAllocation.newBuilder().setNode(node)
        .setCpus(cpus).setMemMb(100).build())));
  }

  @Test
  void testOnlyDrawsAJobIntoItsMagneticReservationAndWaitsForItsOwnToBegin() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "m", 1000, 9000, List.of("n2"), "MAGNETIC");
    s = TestStates.submit(s, 1, TestStates.spec().build(), 1900);
    Planner.WillRun w = Planner.willRun(s, 1, 2000, org.corral.common.config.SchedulingConfig.DEFAULTS);
    assertThat(w.start()).isEqualTo(2000);
    assertThat(w.allocation()).extracting(NodeAllocation::getNode).containsExactly("n2"); // n1 free too

    ClusterState later = reserve(TestStates.cluster(2, 8, 4000), "later", 5000, 9000, List.of("n2"));
    later = TestStates.submit(later, 1, TestStates.spec().setReservation("later").build(), 1900);
    Planner.WillRun own = Planner.willRun(later, 1, 2000, org.corral.common.config.SchedulingConfig.DEFAULTS);
    assertThat(own.start()).isEqualTo(5000);
    assertThat(own.allocation()).extracting(NodeAllocation::getNode).containsExactly("n2");
  }

  @Test
  void testOnlyAndBackfillPlanAJobInsideItsMagneticReservationWhenThatFreesFirst() {
    ClusterState s = TestStates.cluster(2, 8, 4000);
    s = reserve(s, "m", 1000, 90000, List.of("n2"), "MAGNETIC");
    s = running(s, 7, "n1", 8, 100, "");  // n1 busy until 7000
    s = running(s, 8, "n2", 8, 20, "m");  // the reservation's n2 until 2200
    s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(8).setTimeLimitMin(10).build(), 1900);
    Planner.WillRun w = Planner.willRun(s, 1, 2000, org.corral.common.config.SchedulingConfig.DEFAULTS);
    assertThat(w.start()).isEqualTo(2200);
    assertThat(w.allocation()).extracting(NodeAllocation::getNode).containsExactly("n2");
    Plan p = Planner.plan(s, 2000);
    assertThat(p.starts()).isEmpty();
    assertThat(p.waiting().get(1).expectedStart()).isEqualTo(2200);
    assertThat(p.waiting().get(1).schedNodes()).isEqualTo("n2");

    ClusterState outsider = TestStates.cluster(2, 8, 4000); // bob is not admitted: planned on n1 after 7000
    outsider = reserve(outsider, "m", 1000, 90000, List.of("n2"), "MAGNETIC");
    outsider = running(outsider, 7, "n1", 8, 100, "");
    outsider = StateMachine.apply(outsider, new Command.SubmitJob(1, 1900, 1001, "bob", 1001, "bob",
        TestStates.spec().setNumTasks(8).setTimeLimitMin(10).build()));
    Plan q = Planner.plan(outsider, 2000);
    assertThat(q.waiting().get(1).expectedStart()).isEqualTo(7000);
    assertThat(q.waiting().get(1).schedNodes()).isEqualTo("n1");
  }

  /**
   * Core reservations (CoreCnt=): 4 of n1's 8 CPUs reserved from {@code start} to 9000. Each row:
   * the CPUs a job outside asks (0: none), the CPUs a job inside asks (0: none), CPUs a running
   * outside job holds on n1 (IGNORE_JOBS), the reserved cores, when the window begins, and which
   * jobs start at 2000 (1: the outsider, 2: the insider); limits are 60 minutes.
   */
  @Test
  void aCoreReservationTakesOnlyItsCpusFromOthersAndGivesItsJobsNoMore() {
    int[][] rows = {
        // outside, inside, running, cores, start, expected starts...
        {4, 0, 0, 4, 1000},
        {5, 0, 0, 4, 1000},
        {0, 4, 0, 4, 1000},
        {0, 5, 0, 4, 1000},
        {4, 4, 0, 4, 1000},
        {1, 0, 0, 8, 1000},
        {0, 4, 4, 4, 1000},
        {8, 0, 0, 4, 3000}, // runs into the window
        {4, 0, 0, 4, 3000},
        {0, 6, 0, 6, 1000},
        {2, 6, 0, 6, 1000},
    };
    List<List<Integer>> expected = List.of(List.of(1), List.of(), List.of(2), List.of(), List.of(1, 2), List.of(),
        List.of(2), List.of(), List.of(1), List.of(2), List.of(1, 2));
    for (int row = 0; row < rows.length; row++) {
      int[] r = rows[row];
      ClusterState s = TestStates.cluster(1, 8, 4000);
      if (r[2] > 0) {
        s = running(s, 9, "n1", r[2], 600, "");
      }
      ReservationInfo res = ReservationInfo.newBuilder().setName("c").setStartTime(r[4]).setEndTime(9000)
          .addNodeNames("n1").addNodeCores(r[3]).setCoreCnt(r[3]).addUsers("alice").build();
      s = StateMachine.apply(s, new Command.CreateReservation(res, 1000));
      if (r[0] > 0) {
        s = TestStates.submit(s, 1, TestStates.spec().setNumTasks(r[0]).setTimeLimitMin(60).build(), 1001);
      }
      if (r[1] > 0) {
        s = TestStates.submit(s, 2, TestStates.spec().setReservation("c").setNumTasks(r[1]).setTimeLimitMin(60).build(),
            1002);
      }
      Plan p = Planner.plan(s, 2000);
      assertThat(p.starts()).as("row %d", row).extracting(Command.StartJob::jobId)
          .containsExactlyInAnyOrderElementsOf(expected.get(row));
    }
  }
}
