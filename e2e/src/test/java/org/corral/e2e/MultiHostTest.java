package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.corral.e2e.LocalCluster.Result;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster of four hosts on this machine with AuthType=auth/munge ({@link NamespacedHosts}):
 * commands on the login host reach the daemons only over the network, authenticated by their own
 * host's munged. Skips where the kernel forbids namespaces.
 */
class MultiHostTest {
  private static NamespacedHosts hosts;
  private static Path work;
  private static TestUsers.User alice;
  private static TestUsers.User bob;
  private static String c1;
  private static String c2;

  @BeforeAll
  static void up() throws Exception {
    hosts = NamespacedHosts.start("munge", "10.205.0");
    work = hosts.work;
    alice = hosts.alice;
    bob = hosts.bob;
    c1 = hosts.c1;
    c2 = hosts.c2;
  }

  @AfterAll
  static void down() throws Exception {
    if (hosts != null) {
      hosts.close();
    }
  }

  @Test
  void aBatchJobFromTheLoginHostRunsSrunAcrossBothComputeHosts() throws Exception {
    Path script = work.resolve("across.sh");
    Files.writeString(script, "#!/bin/sh\nsrun -l hostname | sort\n");
    Files.setOwner(script, script.getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(alice.name()));
    Result r = on("login", alice, "sbatch", "--parsable", "-N2", "-o", "across.out", "across.sh");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    hosts.awaitGone(r.out().strip());
    assertThat(Files.readString(work.resolve("across.out"))).isEqualTo("0: " + c1 + "\n1: " + c2
        + "\n");
  }

  @Test
  void srunAndSallocFromTheLoginHostStartTasksOnBothComputeHosts() throws Exception {
    Result srun = on("login", alice, "srun", "-N2", "-l", "hostname");
    assertThat(srun.exitCode()).as(srun.toString()).isZero();
    assertThat(sorted(srun.out())).containsExactly("0: " + c1, "1: " + c2);
    Result salloc = on("login", alice, "salloc", "-N2", "srun", "-l", "hostname");
    assertThat(salloc.exitCode()).as(salloc.toString()).isZero();
    assertThat(sorted(salloc.out())).containsExactly("0: " + c1, "1: " + c2);
    assertThat(salloc.err()).contains("salloc: Granted job allocation");
  }

  @Test
  void queriesWorkAndOnlyTheOwnerMayCancel() throws Exception {
    Result sbatch = on("login", alice, "sbatch", "--parsable", "-J", "sleeper", "--wrap",
        "sleep 600");
    assertThat(sbatch.exitCode()).as(sbatch.toString()).isZero();
    String id = sbatch.out().strip();
    assertThat(on("login", alice, "squeue", "-h", "-j", id, "-o", "%j %u").out().strip())
        .isEqualTo("sleeper " + alice.name());
    assertThat(on("login", alice, "sinfo", "-h", "-o", "%P %D").out().strip())
        .isEqualTo("debug* 2");
    assertThat(on("login", alice, "scontrol", "show", "job", id).out())
        .contains("JobName=sleeper", "UserId=" + alice.name());
    // A compute host has no controller socket either: its commands go over the network too.
    assertThat(on("c1", alice, "squeue", "-h", "-j", id, "-o", "%u").out().strip())
        .isEqualTo(alice.name());
    Result refused = on("login", bob, "scancel", id);
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).contains("Kill job error on job id " + id
        + ": Access/permission denied");
    Result cancelled = on("login", alice, "scancel", id);
    assertThat(cancelled.exitCode()).as(cancelled.toString()).isZero();
    // slurmdbd over the network: the record arrives once the controller has shipped it.
    Result sacct = on("login", alice, "sacct", "-n", "-X", "-j", id, "-o", "JobName,User%20");
    for (int i = 0; i < 60 && sacct.out().isBlank(); i++) {
      Thread.sleep(1000);
      sacct = on("login", alice, "sacct", "-n", "-X", "-j", id, "-o", "JobName,User%20");
    }
    assertThat(sacct.exitCode()).as(sacct.toString()).isZero();
    assertThat(sacct.out().strip()).matches("sleeper\\s+" + alice.name());
  }

  @Test
  void forgedExpiredReplayedAndReboundCredentialsAreRefusedAndTheControllerServesOn()
      throws Exception {
    Result r = hosts.java("login", alice, CredentialProbe.class, "10.205.0.10",
        String.valueOf(hosts.portBase));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).as(r.toString()).hasSize(7);
    assertThat(lines.get(0)).isEqualTo("valid accepted");
    assertThat(lines.get(1)).startsWith("forged refused: ").contains("credential is");
    assertThat(lines.get(2)).startsWith("expired refused: ").contains("expired");
    assertThat(lines.get(3)).isEqualTo("first-use accepted");
    assertThat(lines.get(4)).startsWith("replayed refused: ").contains("replayed");
    assertThat(lines.get(5)).startsWith("rebound refused: ").contains("made for another message");
    assertThat(lines.get(6)).isEqualTo("still-serving accepted");
  }

  private static List<String> sorted(String out) {
    return out.lines().sorted().toList();
  }

  private static Result on(String host, TestUsers.User user, String... command)
      throws IOException, InterruptedException {
    return hosts.on(host, user, command);
  }
}
