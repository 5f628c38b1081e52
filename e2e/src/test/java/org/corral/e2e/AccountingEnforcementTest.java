package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Accounting end to end on a `corral up` cluster (slurmdbd over its embedded database) with
 * AccountingStorageEnforce=associations,limits,qos: a user without an association is refused
 * with Slurm's message; once sacctmgr adds one, jobs take the default account and QOS, a bad
 * account or QOS is refused, MaxJobs holds the second job pending (AssocMaxJobsLimit), a
 * submit limit refuses outright, and sacct finds the jobs under their account.
 */
class AccountingEnforcementTest {
  private static final String CONF = """
      ClusterName=enforced
      AccountingStorageEnforce=associations,limits,qos
      SchedulerType=sched/backfill
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      DefMemPerCPU=100
      NodeName=n1 CPUs=4 RealMemory=2000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;

  @Test
  void associationsQosAndLimitsAreEnforced() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      java.nio.file.Path work = c.workDir(alice);
      LocalCluster.Result refused = c.as(alice, work, "sbatch", "--wrap", "true");
      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(refused.err()).isEqualTo("sbatch: error: Batch job submission failed: "
          + "Invalid account or account/partition combination specified\n");

      assertThat(c.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics", "MaxJobs=1",
          "MaxSubmitJobs=2").exitCode()).isZero();

      int first = LocalCluster.jobId(c.as(alice, work, "sbatch", "--wrap", "sleep 60"));
      assertThat(c.awaitState(first, "RUNNING", 30)).isEqualTo("RUNNING");
      assertThat(c.as(alice, "squeue", "-h", "-j", String.valueOf(first), "-o", "%a %q").out())
          .isEqualTo("physics normal\n");

      assertThat(c.as(alice, work, "sbatch", "-A", "nosuch", "--wrap", "true").err())
          .contains("Invalid account or account/partition combination specified");
      assertThat(c.as(alice, work, "sbatch", "--qos", "nosuch", "--wrap", "true").err())
          .contains("Invalid qos specification");

      int second = LocalCluster.jobId(c.as(alice, work, "sbatch", "--wrap", "true"));
      String reason = "";
      for (int i = 0; i < 40 && !reason.equals("AssocMaxJobsLimit"); i++) {
        Thread.sleep(250);
        reason = c.as(alice, "squeue", "-h", "-j", String.valueOf(second), "-o", "%r").out().strip();
      }
      assertThat(reason).isEqualTo("AssocMaxJobsLimit");
      LocalCluster.Result third = c.as(alice, work, "sbatch", "--wrap", "true");
      assertThat(third.exitCode()).isEqualTo(1);
      assertThat(third.err()).contains("Job violates accounting/QOS policy");

      assertThat(c.as(alice, "scancel", String.valueOf(first)).exitCode()).isZero();
      assertThat(c.awaitState(second, "COMPLETED", 30)).isEqualTo("COMPLETED");
      String listed = "";
      for (int i = 0; i < 40 && !listed.contains(second + "|physics|COMPLETED"); i++) {
        Thread.sleep(250);
        listed = c.as(alice, "sacct", "-X", "-n", "-P", "-o", "JobID,Account,State",
            "-j", first + "," + second).out();
      }
      assertThat(listed).contains(first + "|physics|CANCELLED by " + alice.uid()).contains(second + "|physics|COMPLETED");
    }
  }
}
