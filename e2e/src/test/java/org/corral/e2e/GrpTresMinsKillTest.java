package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Without AccountingStorageEnforce=safe a GrpTRESMins or GrpWall limit that is used up ends the
 * jobs running under it, as Slurm's acct_policy_job_time_out does: alice's job starts (nothing
 * used yet) and is timed out once her association's limit is reached (TIMEOUT, Reason
 * TimeLimit, long before its own 10 minutes); her next job waits with the limit's reason; bob's
 * job beside it, under no such limit, keeps running.
 */
class GrpTresMinsKillTest {
  private static final String CONF = """
      ClusterName=minutes
      AccountingStorageEnforce=associations,limits,qos
      PriorityType=priority/multifactor
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;

  /** GrpTRESMins=mem=100: her job holding 1000 MB uses them up in 6 s. */
  @Test
  void runningJobsAreEndedWhenTheirAssociationsMemoryMinutesAreUsedUp() throws Exception {
    endedWhenUsedUp("GrpTRESMins=mem=100", "--mem=1000", 60, "AssocGrpMemMinutes");
  }

  /** GrpWall=1 (the smallest): a minute of wall time, then the next scheduling pass ends it. */
  @Test
  void runningJobsAreEndedWhenTheirAssociationsWallTimeIsUsedUp() throws Exception {
    endedWhenUsedUp("GrpWall=1", "--mem=500", 150, "AssocGrpWallLimit");
  }

  private static void endedWhenUsedUp(String limit, String mem, int waitS, String reasonAfter) throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      assertThat(c.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics", limit).exitCode())
          .isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", bob.name(), "account=physics").exitCode()).isZero();

      int bobs = LocalCluster.jobId(c.as(bob, c.workDir(bob), "sbatch", mem, "-t", "10", "--wrap", "sleep 300"));
      int hers = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", mem, "-t", "10", "--wrap", "sleep 300"));
      assertThat(c.awaitState(hers, "RUNNING", 30)).isEqualTo("RUNNING");
      // the scheduling pass (every 5 s at most) after the limit is reached ends it
      String state = c.awaitState(hers, "TIMEOUT", waitS);
      String shown = c.as(null, "scontrol", "show", "job", String.valueOf(hers)).out();
      assertThat(state).as(shown).isEqualTo("TIMEOUT");
      assertThat(shown).contains("JobState=TIMEOUT Reason=TimeLimit");
      assertThat(c.as(null, "squeue", "-h", "-j", String.valueOf(bobs), "-o", "%T").out()).isEqualTo("RUNNING\n");

      int next = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", "--mem=100", "-t", "1", "--wrap", "true"));
      String reason = "";
      for (int i = 0; i < 40 && !reason.equals(reasonAfter); i++) {
        Thread.sleep(250);
        reason = c.as(alice, "squeue", "-h", "-j", String.valueOf(next), "-o", "%r").out().strip();
      }
      assertThat(reason).isEqualTo(reasonAfter);
      assertThat(c.as(bob, "scancel", String.valueOf(bobs)).exitCode()).isZero();
    }
  }
}
