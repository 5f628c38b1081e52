package org.corral.ctld.sched.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The time limits (GrpTRESMins, GrpWall, MaxTRESMins on associations and QOS) with and without
 * AccountingStorageEnforce=safe: one table row a case, each a tree with one limit, the usage so
 * far, and the job asked for (CPUs, minutes); the reason the job waits with, or "start".
 */
class TimeLimitCheckTest {
  private static final long NOW = 10_000;

  /** root > physics > alice's association; the limit sits on {@code where} (physics, alice or qos). */
  private static AssocTree tree(String where, String limit) {
    AcctLimits.Builder l = AcctLimits.newBuilder();
    AcctQos.Builder q = AcctQos.newBuilder().setName("normal");
    String[] kv = limit.split(":", 2);
    switch (kv[0]) {
      case "GrpTRESMins" -> {
        l.setGrpTresMins(kv[1]);
        q.setGrpTresMins(kv[1]);
      }
      case "GrpWall" -> {
        l.setGrpWallMinutes(Integer.parseInt(kv[1]));
        q.setGrpWallMinutes(Integer.parseInt(kv[1]));
      }
      case "MaxTRESMins" -> {
        l.setMaxTresMinsPerJob(kv[1]);
        q.setMaxTresMinsPerJob(kv[1]);
      }
      case "GrpTRESRunMins" -> {
        l.setGrpTresRunMins(kv[1]);
        q.setGrpTresRunMins(kv[1]);
      }
      default -> throw new IllegalArgumentException(limit);
    }
    AcctLimits none = AcctLimits.getDefaultInstance();
    return new AssocTree(AssocSnapshot.newBuilder()
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics"))
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root")
            .setLimits(where.equals("physics") ? l.build() : none))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("physics").setUser("alice")
            .setLimits(where.equals("alice") ? l.build() : none))
        .addQos(where.equals("qos") ? q : AcctQos.newBuilder().setName("normal"))
        .build(), "c");
  }

  /** {@code cpuMins} CPU-minutes and {@code wallMins} minutes already used by alice's jobs under physics (and QOS normal). */
  private static TimeUsage used(double cpuMins, double wallMins) {
    TimeUsage.Used u = new TimeUsage.Used(cpuMins * 60, wallMins * 60);
    return new TimeUsage(Map.of(new TimeUsage.Owner("physics", "alice", "debug"), u), Map.of("normal", u));
  }

  private static JobSpec job(int cpus, int minutes) {
    return TestStates.spec().setAccount("physics").setNumTasks(cpus).setTimeLimitMin(minutes).build();
  }

  private static String outcome(ClusterState s, int jobId, AssocTree t, TimeUsage used, boolean safe) {
    LimitCheck.Enforce enforce = new LimitCheck.Enforce(true, true, safe);
    Plan p = Planner.plan(s, NOW, SchedulingConfig.DEFAULTS, LimitCheck.of(s, t, enforce, used, NOW));
    return p.waiting().containsKey(jobId) ? p.waiting().get(jobId).reason() : "start";
  }

  @ParameterizedTest(name = "{0} {1} on {2}, used {3} cpu-min {4} min, job {5}x{6} min, safe={7}: {8}")
  @CsvSource({
      // limit,              value,  where,   used cpu-min, used min, cpus, minutes, safe, outcome
      "GrpTRESMins, cpu=100,  physics, 99,  99,  1, 60, false, start",
      "GrpTRESMins, cpu=100,  physics, 100, 100, 1, 1,  false, AssocGrpCPUMinutesLimit",
      "GrpTRESMins, cpu=100,  alice,   150, 150, 1, 1,  false, AssocGrpCPUMinutesLimit",
      "GrpTRESMins, cpu=100,  physics, 40,  40,  2, 30, true,  start",
      "GrpTRESMins, cpu=100,  physics, 41,  41,  2, 30, true,  AssocGrpCPUMinutesLimit",
      "GrpTRESMins, cpu=0,    alice,   0,   0,   1, 1,  false, AssocGrpCPUMinutesLimit",
      "GrpTRESMins, cpu=100,  qos,     100, 100, 1, 1,  false, QOSGrpCPUMinutesLimit",
      "GrpTRESMins, cpu=100,  qos,     90,  90,  1, 11, true,  QOSGrpCPUMinutesLimit",
      "GrpTRESMins, mem=100,  physics, 500, 500, 1, 60, true,  AssocGrpMemMinutes",
      "GrpTRESMins, mem=100G, physics, 500, 500, 1, 60, true,  start",
      "GrpWall,     30,       physics, 500, 29,  8, 60, false, start",
      "GrpWall,     30,       physics, 0,   30,  1, 1,  false, AssocGrpWallLimit",
      "GrpWall,     30,       alice,   0,   20,  8, 10, true,  start",
      "GrpWall,     30,       alice,   0,   20,  1, 11, true,  AssocGrpWallLimit",
      "GrpWall,     30,       qos,     0,   31,  1, 1,  false, QOSGrpWallLimit",
      "MaxTRESMins, cpu=60,   physics, 0,   0,   2, 30, false, start",
      "MaxTRESMins, cpu=60,   physics, 0,   0,   2, 31, false, AssocMaxCpuMinutesPerJobLimit",
      "MaxTRESMins, cpu=60,   alice,   0,   0,   4, 16, true,  AssocMaxCpuMinutesPerJobLimit",
      "MaxTRESMins, node=10,  physics, 0,   0,   1, 11, false, AssocMaxNodeMinutesPerJob",
      "MaxTRESMins, cpu=60,   qos,     0,   0,   4, 16, false, QOSMaxCpuMinutesPerJobLimit",
      "MaxTRESMins, node=10,  qos,     0,   0,   1, 10, false, start",
  })
  void limitsHoldJobsWithSlurmsReasons(String limit, String value, String where, double usedCpu, double usedWall,
      int cpus, int minutes, boolean safe, String expected) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(cpus, minutes), NOW - 100);
    assertThat(outcome(s, 1, tree(where, limit + ":" + value), used(usedCpu, usedWall), safe)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "GrpTRESMins={0} on {1}, used {2} {3}-min: {4}")
  @CsvSource({
      // limit,          where,   used TRES,   used minutes, outcome
      "mem=1000,         physics, mem,         999,  start",
      "mem=1000,         physics, mem,         1000, AssocGrpMemMinutes",
      "mem=1000,         qos,     mem,         1000, QOSGrpMemoryMinutes",
      "node=10,          alice,   node,        10,   AssocGrpNodeMinutes",
      "node=10,          qos,     node,        10,   QOSGrpNodeMinutes",
      "billing=50,       physics, billing,     50,   AssocGrpBillingMinutes",
      "billing=50,       qos,     billing,     50,   QOSGrpBillingMinutes",
      "gres/gpu=30,      physics, gres/gpu,    30,   AssocGrpGRESMinutes",
      "gres/gpu=30,      qos,     gres/gpu,    30,   QOSGrpGRESMinutes",
      "gres/gpu:a100=30, alice,   gres/gpu:a100, 30, AssocGrpGRESMinutes",
      "gres/gpu:a100=30, alice,   gres/gpu,    30,   start",
      "cpu=100;node=10,  physics, node,        10,   AssocGrpNodeMinutes",
      "license/x=5,      physics, license/x,   5,    AssocGrpLicenseMinutes",
  })
  void everyTresOfGrpTRESMinsHoldsJobsWithItsReason(String limit, String where, String tres, double usedMins,
      String expected) {
    TimeUsage.Used u = new TimeUsage.Used(Map.of(tres, usedMins * 60), 0);
    TimeUsage used = new TimeUsage(Map.of(new TimeUsage.Owner("physics", "alice", "debug"), u), Map.of("normal", u));
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(1, 1), NOW - 100);
    assertThat(outcome(s, 1, tree(where, "GrpTRESMins:" + limit.replace(';', ',')), used, false)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} on {1}, used {2} min, safe={3}: {4}")
  @CsvSource({
      "cpu=100,     physics, 100, false, AssocGrpCPUMinutesLimit",
      "cpu=100,     physics, 99,  false, none",
      "node=10,     qos,     10,  false, QOSGrpNodeMinutes",
      "gres/gpu=10, physics, 10,  false, none",          // the job holds no GPU
      "cpu=100,     physics, 100, true,  none",          // with safe Slurm kills nothing
  })
  void runningJobsWhoseGrpTRESMinsAreUsedUpAreTheOnesToEnd(String limit, String where, double usedMins, boolean safe,
      String expected) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(1, 30), NOW - 700);
    s = StateMachine.apply(s, Planner.plan(s, NOW - 600, SchedulingConfig.DEFAULTS).starts().get(0));
    String tres = limit.substring(0, limit.indexOf('='));
    TimeUsage.Used u = new TimeUsage.Used(Map.of(tres, usedMins * 60), 0);
    TimeUsage used = new TimeUsage(Map.of(new TimeUsage.Owner("physics", "alice", "debug"), u), Map.of("normal", u));
    Map<Integer, String> ended = LimitCheck.of(s, tree(where, "GrpTRESMins:" + limit),
        new LimitCheck.Enforce(true, true, safe), used, NOW).exhausted(s);
    assertThat(ended).isEqualTo(expected.equals("none") ? Map.of() : Map.of(1, expected));
  }

  @ParameterizedTest(name = "GrpWall={0} on {1}, used {2} min, safe={3}: {4}")
  @CsvSource({
      "100, physics, 100, false, AssocGrpWallLimit",
      "100, alice,   150, false, AssocGrpWallLimit",
      "100, physics, 99,  false, none",
      "10,  qos,     10,  false, QOSGrpWallLimit",
      "100, physics, 100, true,  none",          // with safe Slurm kills nothing
  })
  void runningJobsWhoseGrpWallIsUsedUpAreTheOnesToEnd(int limit, String where, double usedMins, boolean safe,
      String expected) {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(1, 30), NOW - 700);
    s = StateMachine.apply(s, Planner.plan(s, NOW - 600, SchedulingConfig.DEFAULTS).starts().get(0));
    TimeUsage.Used u = new TimeUsage.Used(Map.of(), usedMins * 60);
    TimeUsage used = new TimeUsage(Map.of(new TimeUsage.Owner("physics", "alice", "debug"), u), Map.of("normal", u));
    Map<Integer, String> ended = LimitCheck.of(s, tree(where, "GrpWall:" + limit),
        new LimitCheck.Enforce(true, true, safe), used, NOW).exhausted(s);
    assertThat(ended).isEqualTo(expected.equals("none") ? Map.of() : Map.of(1, expected));
  }

  @ParameterizedTest(name = "safe={0}: {1}")
  @CsvSource({"false, start", "true, AssocGrpCPUMinutesLimit"})
  void safeCountsWhatRunningJobsMayStillUse(boolean safe, String expected) {
    // 100 CPU-minutes for physics; a 4-CPU job runs with 20 of its 30 minutes left (80 CPU-minutes
    // it may still use); the usage so far (40) is under the limit but 40 + 80 + 10 is over it.
    AssocTree t = tree("physics", "GrpTRESMins:cpu=100");
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(4, 30), NOW - 700);
    Plan first = Planner.plan(s, NOW - 600, SchedulingConfig.DEFAULTS);
    s = StateMachine.apply(s, first.starts().get(0));
    s = TestStates.submit(s, 2, job(1, 10), NOW - 10);
    assertThat(outcome(s, 2, t, used(40, 10), safe)).isEqualTo(expected);
  }

  /**
   * GrpTRESRunMins: a 4-CPU job runs with 20 of its 30 minutes left (80 CPU-minutes); the next
   * job's CPUs times its time limit must fit beside them, with safe or without, whatever the
   * usage so far (none here).
   */
  @ParameterizedTest(name = "{0} on {1}, next job {2} CPUs x {3} min, safe={4}: {5}")
  @CsvSource({
      "cpu=100,  physics, 1, 20, false, start",                        // 80 + 20 = 100: fits
      "cpu=100,  physics, 1, 21, false, AssocGrpCPURunMinutesLimit",  // 80 + 21
      "cpu=100,  alice,   2, 11, true,  AssocGrpCPURunMinutesLimit",
      "cpu=100,  qos,     1, 21, false, QOSGrpCPURunMinutesLimit",
      "node=30,  physics, 1, 11, false, AssocGrpNodeRunMinutes",      // 20 node-minutes left + 11
      "node=30,  qos,     1, 11, false, QOSGrpNodeRunMinutes",
      "mem=10,   qos,     1, 10, false, QOSGrpMemoryRunMinutes",
      "gres/gpu=1, physics, 1, 60, false, start",                     // the job asks for no GPU
  })
  void grpTresRunMinsCountRunningJobsTimeLeftAndTheJobsOwnLimit(String limit, String where, int cpus, int minutes,
      boolean safe, String expected) {
    AssocTree t = tree(where, "GrpTRESRunMins:" + limit);
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(4, 30), NOW - 700);
    s = StateMachine.apply(s, Planner.plan(s, NOW - 600, SchedulingConfig.DEFAULTS).starts().get(0));
    s = TestStates.submit(s, 2, job(cpus, minutes), NOW - 10);
    assertThat(outcome(s, 2, t, TimeUsage.NONE, safe)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "safe={0}: job 2 {1}")
  @CsvSource({"false, start", "true, AssocGrpCPUMinutesLimit"})
  void jobsStartedInOnePassCountAgainstEachOtherOnlyWhenSafe(boolean safe, String expected) {
    AssocTree t = tree("alice", "GrpTRESMins:cpu=100");
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(1, 60), NOW - 100);
    s = TestStates.submit(s, 2, job(1, 60), NOW - 99);
    assertThat(outcome(s, 1, t, TimeUsage.NONE, safe)).isEqualTo("start");
    assertThat(outcome(s, 2, t, TimeUsage.NONE, safe)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"GrpTRESMins:cpu=1", "GrpWall:1"})
  void grpLimitsOnTheRootAssociationAreNotEnforced(String limit) {
    AcctLimits.Builder l = AcctLimits.newBuilder();
    if (limit.startsWith("GrpWall")) {
      l.setGrpWallMinutes(1);
    } else {
      l.setGrpTresMins("cpu=1");
    }
    AssocTree t = new AssocTree(AssocSnapshot.newBuilder()
        .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root").setLimits(l))
        .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root"))
        .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("physics").setUser("alice"))
        .addQos(AcctQos.newBuilder().setName("normal")).build(), "c");
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, job(1, 60), NOW - 100);
    assertThat(outcome(s, 1, t, used(500, 500), true)).isEqualTo("start");
  }
}
