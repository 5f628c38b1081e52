package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Wckeys end to end with TrackWCKey=yes and AccountingStorageEnforce=associations,wckeys, two
 * users: alice, given proj1 with {@code sacctmgr add user ... wckeys=proj1}, submits with
 * {@code --wckey=proj1} and sacct shows the key and the id slurmdbd gave it; bob, who holds no
 * such key, is refused "Invalid wckey specification" and nothing of his is queued; sacctmgr show
 * configuration lists TrackWCKey and slurmdbd's settings.
 */
class WckeysTest {
  private static final String CONF = """
      ClusterName=keyed
      TrackWCKey=yes
      AccountingStorageEnforce=associations,wckeys
      SelectType=select/cons_tres
      SelectTypeParameters=CR_Core_Memory
      DefMemPerCPU=100
      NodeName=n1 CPUs=2 RealMemory=1000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;

  @Test
  void aUserHoldingTheWckeyChargesItAndOneWhoDoesNotIsRefused() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      assertThat(c.as(null, "sacctmgr", "-i", "add", "account", "physics").exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", alice.name(), "account=physics", "wckeys=proj1")
          .exitCode()).isZero();
      assertThat(c.as(null, "sacctmgr", "-i", "add", "user", bob.name(), "account=physics").exitCode()).isZero();
      String wckeyId = c.as(null, "sacctmgr", "-n", "-P", "show", "wckey", "where", "user=" + alice.name(),
          "format=id,wckey").out().strip();
      assertThat(wckeyId).endsWith("|proj1");
      wckeyId = wckeyId.substring(0, wckeyId.indexOf('|'));
      assertThat(wckeyId).isNotEqualTo("0");

      int job = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", "--wckey=proj1", "--wrap", "true"));
      assertThat(c.awaitState(job, "COMPLETED", 60)).isEqualTo("COMPLETED");
      String[] sacct = {"sacct", "-n", "-P", "-X", "-j", String.valueOf(job), "-o", "WCKey,WCKeyID,State"};
      String line = "";
      for (int i = 0; i < 120 && !line.endsWith("|COMPLETED"); i++) { // slurmdbd stores it shortly after
        line = c.as(alice, sacct).out().strip();
        Thread.sleep(250);
      }
      assertThat(line).isEqualTo("proj1|" + wckeyId + "|COMPLETED");
      // --yaml through bin/sacct: its library must be on the commands' class path
      LocalCluster.Result yaml = c.as(alice, "sacct", "--yaml", "-X", "-j", String.valueOf(job));
      assertThat(yaml.err()).isEmpty();
      assertThat(yaml.exitCode()).isZero();
      assertThat(yaml.out()).startsWith("---\n").endsWith("...\n").contains("proj1");

      LocalCluster.Result refused = c.as(bob, c.workDir(bob), "sbatch", "--wckey=nope", "--wrap", "true");
      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(refused.err()).isEqualTo("sbatch: error: Batch job submission failed: Invalid wckey specification\n");
      assertThat(c.as(null, "squeue", "-h", "-u", bob.name()).out()).isEmpty();

      // sacctmgr show configuration: this slurm.conf's TrackWCKey, then slurmdbd's settings
      String conf = c.as(bob, "sacctmgr", "show", "configuration").out();
      assertThat(conf).startsWith("Configuration data as of ").contains("\nTrackWCKey             = Yes\n",
          "\n\nSlurmDBD configuration:\nAllowNoDefAcct         = No\n", "\nSLURMDBD_VERSION       = 22.05.8\n");
    }
  }
}
