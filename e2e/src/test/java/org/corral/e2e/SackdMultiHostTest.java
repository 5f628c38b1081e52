package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.corral.e2e.LocalCluster.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AuthType=auth/slurm across namespaced hosts ({@link NamespacedHosts}): no host runs munged; the
 * login host runs sackd alone, the compute hosts' slurmd vouch for the users of their jobs (srun
 * in a batch script), and users never see slurm.key. Skips where the kernel forbids namespaces.
 */
class SackdMultiHostTest {
  /** Short, so the expired case needs no long wait; long enough for commands on a busy CI host. */
  private static final int TTL_S = 30;
  private static NamespacedHosts hosts;

  @BeforeAll
  static void up() throws Exception {
    hosts = NamespacedHosts.start("slurm", "10.245.0", "--auth-info", "ttl=" + TTL_S);
  }

  @AfterAll
  static void down() throws Exception {
    if (hosts != null) {
      hosts.close();
    }
  }

  @Test
  void aBatchJobFromTheLoginHostRunsSrunAcrossBothComputeHosts() throws Exception {
    Path script = hosts.work.resolve("across.sh");
    Files.writeString(script, "#!/bin/sh\nsrun -l hostname | sort\n");
    Files.setOwner(script, script.getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(hosts.alice.name()));
    Result r = hosts.on("login", hosts.alice, "sbatch", "--parsable", "-N2", "-o", "across.out",
        "across.sh");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    hosts.awaitGone(r.out().strip());
    assertThat(Files.readString(hosts.work.resolve("across.out")))
        .isEqualTo("0: " + hosts.c1 + "\n1: " + hosts.c2 + "\n");
  }

  @Test
  void queriesWorkAndOnlyTheOwnerMayCancel() throws Exception {
    Result sbatch = hosts.on("login", hosts.alice, "sbatch", "--parsable", "-J", "sleeper",
        "--wrap", "sleep 600");
    assertThat(sbatch.exitCode()).as(sbatch.toString()).isZero();
    String id = sbatch.out().strip();
    assertThat(hosts.on("login", hosts.alice, "squeue", "-h", "-j", id, "-o", "%j %u").out()
        .strip()).isEqualTo("sleeper " + hosts.alice.name());
    Result refused = hosts.on("login", hosts.bob, "scancel", id);
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err()).contains("Kill job error on job id " + id
        + ": Access/permission denied");
    Result cancelled = hosts.on("login", hosts.alice, "scancel", id);
    assertThat(cancelled.exitCode()).as(cancelled.toString()).isZero();
  }

  @Test
  void usersCannotReadTheClusterKeyOnTheLoginHost() throws Exception {
    Result r = hosts.on("login", hosts.alice, "cat", "/run/corral/etc/slurm.key");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err()).contains("Permission denied");
    // Nor is there a munged to ask (its socket would be in the login host's own /run).
    assertThat(hosts.on("login", hosts.alice, "sh", "-c",
        "ls /run/munge; test -S /run/munge/munge.socket.2 || echo none").out().strip())
        .isEqualTo("none");
  }

  @Test
  void forgedExpiredReplayedReboundAndMisaddressedCredentialsAreRefused() throws Exception {
    Result r = hosts.java("login", hosts.alice, SackProbe.class, "10.245.0.10",
        String.valueOf(hosts.portBase), String.valueOf(TTL_S + 2));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).as(r.toString()).hasSize(8);
    assertThat(lines.get(0)).isEqualTo("valid accepted");
    assertThat(lines.get(1)).startsWith("forged refused: ").contains("MAC does not match");
    assertThat(lines.get(2)).startsWith("expired refused: ").contains("expired");
    assertThat(lines.get(3)).isEqualTo("first-use accepted");
    assertThat(lines.get(4)).startsWith("replayed refused: ").contains("replayed");
    assertThat(lines.get(5)).startsWith("rebound refused: ").contains("MAC does not match");
    assertThat(lines.get(6)).startsWith("misaddressed refused: ")
        .contains("made for slurmdbd, not slurmctld");
    assertThat(lines.get(7)).isEqualTo("still-serving accepted");
    // Each refusal is logged by the controller, which kept serving.
    String log = Files.readString(hosts.dir.resolve("hosts/ctl/log/slurmctld.log"));
    assertThat(log).contains("was replayed", "made for slurmdbd, not slurmctld", "expired");
  }
}
