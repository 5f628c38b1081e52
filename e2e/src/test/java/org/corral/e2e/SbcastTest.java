package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * sbcast on a real cluster (2 nodes on this host, so both write the same path as two nodes sharing
 * a file system would): the file arrives whole, as the job's user, with the source's mode and
 * (-p) times; the refusals and their exit codes are those recorded from Slurm 22.05.
 */
class SbcastTest {
  private static LocalCluster cluster;
  private static TestUsers.User bob;
  private static TestUsers.User alice;
  private static Path work;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    bob = TestUsers.ensure(TestUsers.BOB);
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.up(2, 2, 1000);
    work = cluster.workDir(bob);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void cancel() throws Exception {
    cluster.cancelAllOf(bob);
  }

  private static int runningJob() throws Exception {
    int job = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-N2", "--wrap", "sleep 300"));
    assertThat(cluster.awaitState(job, "RUNNING", 30)).isEqualTo("RUNNING");
    return job;
  }

  private static Path source(String name, int size) throws Exception {
    Path f = work.resolve(name);
    byte[] data = new byte[size];
    new Random(7).nextBytes(data);
    Files.write(f, data);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-x---"));
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_577_934_245_000L));
    new ProcessBuilder("chown", bob.uid() + ":" + bob.gid(), f.toString()).start().waitFor();
    return f;
  }

  @Test
  void aFileOfSeveralBlocksArrivesWholeAsTheJobsUserWithItsModeAndTimes() throws Exception {
    int job = runningJob();
    Path src = source("big.bin", 2_500_000);
    Path dest = work.resolve("copy.bin");
    LocalCluster.Result r = cluster.as(bob, work, "sbcast", "-j", String.valueOf(job), "-f", "-C", "-p", "-s", "1m",
        src.toString(), dest.toString());
    assertThat(r.err()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(Files.readAllBytes(dest)).isEqualTo(Files.readAllBytes(src));
    assertThat(Files.getAttribute(dest, "unix:uid")).isEqualTo(bob.uid());
    assertThat(Files.getAttribute(dest, "unix:mode")).isEqualTo(0100750);
    assertThat(Files.getLastModifiedTime(dest).toMillis()).isEqualTo(1_577_934_245_000L);
  }

  @Test
  void inABatchJobTheJobComesFromTheEnvironmentAndARelativeDestinationIsTheWorkingDirectory() throws Exception {
    source("prog", 1000);
    int job = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "-N2", "-o", "bcast.out", "--wrap",
        "sbcast -f prog prog.copy; echo rc=$?; cmp prog prog.copy && echo same"));
    assertThat(cluster.awaitState(job, "COMPLETED", 30)).isEqualTo("COMPLETED");
    assertThat(Files.readString(work.resolve("bcast.out"))).isEqualTo("rc=0\nsame\n");
  }

  @Test
  void nodesThatCannotWriteAreNamedAndTheExitCodeIsTheirErrno() throws Exception {
    int job = runningJob();
    Path src = source("small", 10);
    Path exists = work.resolve("exists");
    Files.writeString(exists, "old");
    LocalCluster.Result r = cluster.as(bob, work, "sbcast", "-j", String.valueOf(job), src.toString(),
        exists.toString());
    assertThat(r.exitCode()).isEqualTo(17);
    assertThat(r.err()).isEqualTo("sbcast: error: REQUEST_FILE_BCAST(n1): File exists\n"
        + "sbcast: error: REQUEST_FILE_BCAST(n2): File exists\n");
    assertThat(Files.readString(exists)).isEqualTo("old");
    // written with bob's rights, not the node daemon's (root's)
    LocalCluster.Result denied = cluster.as(bob, work, "sbcast", "-j", String.valueOf(job), src.toString(),
        "/root/sbcast-test-" + job);
    assertThat(denied.exitCode()).isEqualTo(13);
    assertThat(denied.err()).isEqualTo("sbcast: error: REQUEST_FILE_BCAST(n1): Permission denied\n"
        + "sbcast: error: REQUEST_FILE_BCAST(n2): Permission denied\n");
    assertThat(Path.of("/root/sbcast-test-" + job)).doesNotExist();
  }

  @Test
  void jobsThatCannotBeUsedAreRefusedAsSlurmDoes() throws Exception {
    int job = runningJob();
    Path src = source("small2", 10);
    Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rw-r--r--"));
    LocalCluster.Result other = cluster.as(alice, work, "sbcast", "-j", String.valueOf(job), src.toString(),
        "/tmp/x");
    assertThat(other.exitCode()).isEqualTo(255);
    assertThat(other.err()).isEqualTo("sbcast: error: Slurm job " + job + " lookup error: Invalid user id\n");
    LocalCluster.Result missing = cluster.as(bob, work, "sbcast", "-j", "999999", src.toString(), "/tmp/x");
    assertThat(missing.exitCode()).isEqualTo(255);
    assertThat(missing.err()).isEqualTo("sbcast: error: Slurm job 999999 lookup error: Invalid job id specified\n");
    int pending = LocalCluster.jobId(cluster.as(bob, work, "sbatch", "--begin=now+1hour", "--wrap", "true"));
    LocalCluster.Result waiting = cluster.as(bob, work, "sbcast", "-j", String.valueOf(pending), src.toString(),
        "/tmp/x");
    assertThat(waiting.exitCode()).isEqualTo(255);
    assertThat(waiting.err()).isEqualTo("sbcast: error: Slurm job " + pending
        + " lookup error: Job is pending execution\n");
    LocalCluster.Result noStep = cluster.as(bob, work, "sbcast", "-j", job + ".7", src.toString(), "/tmp/x");
    assertThat(noStep.err()).isEqualTo("sbcast: error: Slurm job " + job + ".7 lookup error: Invalid job id specified\n");
  }
}
