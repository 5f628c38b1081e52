package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Without AccountingStorageEnforce=safe a GrpTRESMins limit that is used up ends the jobs running
 * under it, as Slurm does: alice may use 100 MB-minutes of memory (GrpTRESMins=mem=100), her job
 * holding 1000 MB starts (nothing used yet) and is timed out within seconds (TIMEOUT, Reason
 * TimeLimit); her next job waits with AssocGrpMemMinutes; bob's job beside it, under no such
 * limit, keeps running.
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

  @Test
  void runningJobsAreEndedWhenTheirAssociationsMemoryMinutesAreUsedUp() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      assertThat(c.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics",
          "GrpTRESMins=mem=100").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", bob.name(), "account=physics").exitCode()).isZero();

      int bobs = LocalCluster.jobId(c.as(bob, c.workDir(bob), "sbatch", "--mem=1000", "-t", "10", "--wrap",
          "sleep 300"));
      int hers = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", "--mem=1000", "-t", "10", "--wrap",
          "sleep 300"));
      assertThat(c.awaitState(hers, "RUNNING", 30)).isEqualTo("RUNNING");
      // 1000 MB for 6 s is 100 MB-minutes; the next scheduling pass (every 5 s at most) ends it
      assertThat(c.awaitState(hers, "TIMEOUT", 60)).isEqualTo("TIMEOUT");
      assertThat(c.as(null, "scontrol", "show", "job", String.valueOf(hers)).out())
          .contains("JobState=TIMEOUT Reason=TimeLimit");
      assertThat(c.as(null, "squeue", "-h", "-j", String.valueOf(bobs), "-o", "%T").out()).isEqualTo("RUNNING\n");

      int next = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", "--mem=100", "-t", "1", "--wrap", "true"));
      String reason = "";
      for (int i = 0; i < 40 && !reason.equals("AssocGrpMemMinutes"); i++) {
        Thread.sleep(250);
        reason = c.as(alice, "squeue", "-h", "-j", String.valueOf(next), "-o", "%r").out().strip();
      }
      assertThat(reason).isEqualTo("AssocGrpMemMinutes");
      assertThat(c.as(bob, "scancel", String.valueOf(bobs)).exitCode()).isZero();
    }
  }
}
