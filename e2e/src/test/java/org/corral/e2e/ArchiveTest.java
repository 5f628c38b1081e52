package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * sacctmgr archive dump and load end to end (SQLite, what corral up runs): alice's jobs run and
 * are in sacct; alice may neither dump nor load (Slurm's refusal); root dumps them with
 * PurgeJobAfter=0hours and Jobs, so sacct no longer shows them and the archive file holds them;
 * loading the file brings them back with sacct -a printing exactly what it printed before, and
 * loading it again changes nothing.
 */
class ArchiveTest {
  private static final String CONF = """
      ClusterName=archived
      NodeName=n1 CPUs=2 RealMemory=1000 State=UNKNOWN
      PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
      """;
  private static final String DENIED = "sacctmgr: error: Your user doesn't have privilege to perform this action\n";

  @Test
  void dumpPurgesJobsFromSacctAndLoadBringsThemBackIdentical() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster c = LocalCluster.upWithConfig(1, CONF)) {
      int last = 0;
      for (String name : new String[] {"first", "second", "third"}) {
        last = LocalCluster.jobId(c.as(alice, c.workDir(alice), "sbatch", "-J", name, "--wrap", "echo " + name));
        assertThat(c.awaitState(last, "COMPLETED", 60)).isEqualTo("COMPLETED");
      }
      String[] sacct = {"sacct", "-a", "-o", "JobID,JobName,User,Account,State,ExitCode,AllocCPUS,Start,End,Elapsed"};
      String before = "";
      for (int i = 0; i < 120 && !before.contains(last + ".batch"); i++) { // slurmdbd stores them shortly after
        Thread.sleep(250);
        before = c.as(null, sacct).out();
      }
      assertThat(before).contains("first", "second", "third", last + ".batch");
      Thread.sleep(1100); // PurgeJobAfter=0hours purges what ended before this second

      Path dir = Files.createDirectories(c.workDir(alice).resolveSibling("archive"));
      // writable by alice too, so her refusal is slurmdbd's, not sacctmgr's check of the directory
      Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
      String[] dump = {"sacctmgr", "-i", "archive", "dump", "Jobs", "PurgeJobAfter=0hours", "Directory=" + dir};
      LocalCluster.Result refused = c.as(alice, dump);
      assertThat(refused.err()).isEqualTo(DENIED + " Problem dumping archive: Access/permission denied\n");
      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(c.as(null, sacct).out()).isEqualTo(before);

      LocalCluster.Result dumped = c.as(null, dump);
      assertThat(dumped.err()).isEqualTo("sacctmgr: accounting_storage/slurmdbd: jobacct_storage_p_archive: SUCCESS\n");
      assertThat(dumped.exitCode()).isZero();
      String header = before.substring(0, before.indexOf('\n', before.indexOf('\n') + 1) + 1);
      assertThat(c.as(null, sacct).out()).isEqualTo(header);
      Path file = dir.resolve("archived_job_archive");
      assertThat(Files.size(file)).isPositive();

      String[] load = {"sacctmgr", "-i", "archive", "load", "File=" + file};
      refused = c.as(alice, load);
      assertThat(refused.err()).isEqualTo(DENIED + " Problem loading archive file: Access/permission denied\n");
      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(c.as(null, sacct).out()).isEqualTo(header);

      for (int round = 0; round < 2; round++) { // the second load stores nothing twice
        LocalCluster.Result loaded = c.as(null, load);
        assertThat(loaded.err())
            .isEqualTo("sacctmgr: accounting_storage/slurmdbd: jobacct_storage_p_archive_load: SUCCESS\n");
        assertThat(loaded.exitCode()).isZero();
        assertThat(c.as(null, sacct).out()).isEqualTo(before);
      }
      LocalCluster.Result missing = c.as(null, "sacctmgr", "-i", "archive", "load", "File=" + dir.resolve("nope"));
      assertThat(missing.err()).isEqualTo("sacctmgr: error: No archive file given to recover.\n"
          + " Problem loading archive file: No such file or directory\n"
          + " Note: For archive load, the file must be accessible on the slurmdbd host.\n");
      assertThat(missing.exitCode()).isEqualTo(1);
    }
  }
}
