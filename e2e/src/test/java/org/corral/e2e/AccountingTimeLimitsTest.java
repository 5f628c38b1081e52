package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Time limits end to end with AccountingStorageEnforce=safe, two users: alice, whose association
 * has no CPU-minutes left (GrpTRESMins=cpu=0), waits with AssocGrpCPUMinutesLimit; bob has 10
 * CPU-minutes: a 5-minute job starts, a 6-minute one waits (5 + 6 could exceed 10 before both
 * end: safe refuses to start it) and starts once the first is cancelled.
 */
class AccountingTimeLimitsTest {
  private static final String CONF = """
      ClusterName=timed
      AccountingStorageEnforce=associations,limits,qos,safe
      PriorityType=priority/multifactor
      SchedulerType=sched/backfill
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      DefMemPerCPU=100
      NodeName=n1 CPUs=4 RealMemory=2000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;

  @Test
  void usersOverTheirCpuMinutesWaitAndSafeStartsOnlyJobsThatCanFinish() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      assertThat(c.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics",
          "GrpTRESMins=cpu=0").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", bob.name(), "account=physics",
          "GrpTRESMins=cpu=10").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-n", "-P", "show", "assoc", "where", "user=" + bob.name(),
          "format=user,grptresmins").out()).isEqualTo(bob.name() + "|cpu=10\n");

      Path aliceWork = c.workDir(alice);
      int aliceJob = LocalCluster.jobId(c.as(alice, aliceWork, "sbatch", "-t", "1", "--wrap", "true"));
      assertThat(reason(c, alice, aliceJob, "AssocGrpCPUMinutesLimit")).isEqualTo("AssocGrpCPUMinutesLimit");

      Path bobWork = c.workDir(bob);
      int first = LocalCluster.jobId(c.as(bob, bobWork, "sbatch", "-t", "5", "--wrap", "sleep 300"));
      assertThat(c.awaitState(first, "RUNNING", 30)).isEqualTo("RUNNING");
      int second = LocalCluster.jobId(c.as(bob, bobWork, "sbatch", "-t", "6", "--wrap", "true"));
      assertThat(reason(c, bob, second, "AssocGrpCPUMinutesLimit")).isEqualTo("AssocGrpCPUMinutesLimit");
      assertThat(c.as(bob, "scancel", String.valueOf(first)).exitCode()).isZero();
      assertThat(c.awaitState(second, "COMPLETED", 60)).isEqualTo("COMPLETED");
      // alice still waits: nothing she did changed her limit
      assertThat(c.as(alice, "squeue", "-h", "-j", String.valueOf(aliceJob), "-o", "%T %r").out())
          .isEqualTo("PENDING AssocGrpCPUMinutesLimit\n");
    }
  }

  /** The job's pending reason once it is {@code expected} (or the last one seen after ten seconds). */
  private static String reason(LocalCluster c, TestUsers.User user, int job, String expected) throws Exception {
    String reason = "";
    for (int i = 0; i < 40 && !reason.equals(expected); i++) {
      Thread.sleep(250);
      reason = c.as(user, "squeue", "-h", "-j", String.valueOf(job), "-o", "%r").out().strip();
    }
    return reason;
  }
}
