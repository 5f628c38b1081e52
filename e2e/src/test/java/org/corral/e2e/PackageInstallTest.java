package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * The installable tarball the build makes (docs/deploy.md) holds everything Corral needs: a
 * cluster started from the unpacked tree, with nothing of the checkout, runs a user's jobs; the
 * systemd units it carries are valid units once pointed at where it was unpacked.
 */
class PackageInstallTest {

  @Test
  void aClusterRunsFromTheUnpackedTarball() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and jobs as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster cluster = LocalCluster.upFromTarball(tarball(), 2, 2, 1000)) {
      assertThat(Files.exists(cluster.home.resolve("pom.xml"))).isFalse();
      assertThat(cluster.as(alice, "sinfo", "-h", "-o", "%D %t").out()).isEqualTo("2 idle\n");
      LocalCluster.Result step = cluster.as(alice, cluster.workDir(alice), "srun", "-N2", "-l", "printenv", "SLURM_PROCID");
      assertThat(step.exitCode()).as(step.toString()).isZero();
      assertThat(step.out().lines().sorted().toList()).containsExactly("0: 0", "1: 1");
    }
  }

  @Test
  void theSystemdUnitsAreValid() throws Exception {
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed");
    Path dir = Files.createTempDirectory("corral-units");
    try {
      List<String> units = new ArrayList<>();
      Path home = Path.of(System.getProperty("corral.home"));
      try (Stream<Path> files = Files.list(home.resolve("dist/systemd"))) {
        for (Path unit : files.sorted().toList()) {
          // The units name /opt/corral (the guide's place); verify checks that ExecStart exists.
          Files.writeString(dir.resolve(unit.getFileName()),
              Files.readString(unit).replace("/opt/corral/", home + "/"));
          units.add(dir.resolve(unit.getFileName()).toString());
        }
      }
      assertThat(units).extracting(u -> Path.of(u).getFileName().toString())
          .containsExactly("sackd.service", "slurmctld.service", "slurmd.service", "slurmdbd.service",
              "slurmrestd.service");
      List<String> cmd = new ArrayList<>(List.of(analyze.toString(), "verify"));
      cmd.addAll(units);
      LocalCluster.Result r = LocalCluster.execute(new ProcessBuilder(cmd), null, 60, cmd);
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(r.err()).isEmpty();
    } finally {
      new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor();
    }
  }

  private static Path tarball() throws IOException {
    Path build = Path.of(System.getProperty("corral.home"), "build");
    try (Stream<Path> files = Files.list(build)) {
      List<Path> found = files.filter(p -> p.getFileName().toString().matches("corral-.*\\.tar\\.gz")).toList();
      assertThat(found).as("the build's tarball in " + build).hasSize(1);
      return found.get(0);
    }
  }
}
