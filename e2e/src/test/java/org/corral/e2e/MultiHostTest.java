package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.corral.e2e.LocalCluster.Result;
import org.corral.testkit.FreePorts;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster of four hosts on this machine (`corral up --hosts`): a controller, a login host and
 * two compute hosts, each in its own network, mount and UTS namespace, so commands on the login
 * host reach the daemons only over the network, authenticated by their own host's munged. Users
 * work from the login host as on a real site. Skips where the kernel forbids namespaces.
 *
 * <p>CORRAL_NETNS_PREFIX names the namespaces (default {@code corral-}), so runs beside each
 * other stay apart.
 */
class MultiHostTest {
  private static final Path HOME = Path.of(System.getProperty("corral.home"));
  private static Path dir;
  private static Path work;
  private static int portBase;
  private static TestUsers.User alice;
  private static TestUsers.User bob;
  private static String c1;
  private static String c2;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to make namespaces and run the daemons");
    Result probe = run(List.of(HOME.resolve("libexec/corral-hosts").toString(), "probe"), null);
    assumeTrue(probe.exitCode() == 0, "namespaced hosts unavailable here: " + probe.out());
    alice = TestUsers.ensure(TestUsers.ALICE);
    bob = TestUsers.ensure(TestUsers.BOB);
    portBase = FreePorts.block(60);
    dir = Files.createTempDirectory(Path.of("/tmp"), "corral-hosts-");
    String prefix = System.getenv().getOrDefault("CORRAL_NETNS_PREFIX", "corral-") + "m" + portBase
        + "-";
    String name = prefix.replaceAll("[^a-z0-9]", "");
    c1 = name + "c1";
    c2 = name + "c2";
    Result up = corral("up", "--hosts", "--dir", dir.toString(), "--port-base",
        String.valueOf(portBase), "--netns-prefix", prefix, "--subnet", "10.205.0");
    if (up.exitCode() != 0) {
      throw new IllegalStateException("corral up --hosts failed: " + up);
    }
    work = Path.of("/home", alice.name(), "multihost-" + portBase);
    Files.createDirectories(work);
    run(List.of("chown", alice.uid() + ":" + alice.gid(), work.toString()), null);
  }

  @AfterAll
  static void down() throws Exception {
    if (dir != null) {
      corral("down", "--hosts", "--dir", dir.toString());
      run(List.of("rm", "-rf", dir.toString()), null);
    }
    if (work != null) {
      run(List.of("rm", "-rf", work.toString()), null);
    }
  }

  @Test
  void aBatchJobFromTheLoginHostRunsSrunAcrossBothComputeHosts() throws Exception {
    Path script = work.resolve("across.sh");
    Files.writeString(script, "#!/bin/sh\nsrun -l hostname | sort\n");
    run(List.of("chown", alice.name(), script.toString()), null);
    Result r = on("login", alice, "sbatch", "--parsable", "-N2", "-o", "across.out", "across.sh");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    String id = r.out().strip();
    for (int i = 0; i < 120 && !on("login", alice, "squeue", "-h", "-j", id).out().isBlank(); i++) {
      Thread.sleep(500);
    }
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
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = HOME.resolve("build/lib") + "/*:" + Path.of(CredentialProbe.class
        .getProtectionDomain().getCodeSource().getLocation().toURI());
    Result r = on("login", alice, java, "-cp", cp, CredentialProbe.class.getName(), "10.205.0.10",
        String.valueOf(portBase));
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
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("corral").toString(), "on", "--dir",
        dir.toString(), host, "-u", user.name(), "--"));
    cmd.addAll(Arrays.asList(command));
    return run(cmd, work);
  }

  private static Result corral(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("corral").toString()));
    cmd.addAll(Arrays.asList(args));
    return run(cmd, null);
  }

  private static Result run(List<String> cmd, Path cwd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("CORRAL_SKIP_BUILD", "1");
    String share = Path.of(CredentialProbe.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();
    pb.environment().put("CORRAL_HOSTS_SHARE", share);
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    return LocalCluster.execute(pb, null, 300, cmd);
  }
}
