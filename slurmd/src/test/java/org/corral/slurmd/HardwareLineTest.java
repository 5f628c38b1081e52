package org.corral.slurmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** slurmd -C: the node line from sysfs and /proc, as Slurm 22.05 prints it. */
class HardwareLineTest {
  @TempDir Path root;

  private void cpu(int n, int pkg, int core, String online) throws IOException {
    Path topo = Files.createDirectories(root.resolve("sys/devices/system/cpu/cpu" + n + "/topology"));
    Files.writeString(topo.resolve("physical_package_id"), pkg + "\n");
    Files.writeString(topo.resolve("core_id"), core + "\n");
    if (online != null) {
      Files.writeString(topo.getParent().resolve("online"), online + "\n");
    }
  }

  @Test
  void twoSocketsOfFourCoresWithTwoThreadsEach() throws IOException {
    for (int n = 0; n < 16; n++) { // Linux numbers the second threads after all first ones
      cpu(n, n % 8 / 4, n % 4, n == 0 ? null : "1");
    }
    cpu(16, 1, 9, "0"); // offline: not counted
    Files.createDirectories(root.resolve("sys/devices/system/cpu/cpufreq")); // not a CPU
    Files.createDirectories(root.resolve("proc"));
    Files.writeString(root.resolve("proc/meminfo"), "MemTotal:       24684312 kB\nMemFree:        21226000 kB\n");
    Files.writeString(root.resolve("proc/uptime"), "93784.52 180000.11\n");
    assertThat(HardwareLine.read(root).render("n7", "")).isEqualTo("""
        NodeName=n7 CPUs=16 Boards=1 SocketsPerBoard=2 CoresPerSocket=4 ThreadsPerCore=2 RealMemory=24105
        UpTime=1-02:03:04
        """);
    assertThat(HardwareLine.read(root).render("g1", "gpu:nvidia_h100_80gb_hbm3:1").lines().findFirst().orElseThrow())
        .endsWith(" RealMemory=24105 Gres=gpu:nvidia_h100_80gb_hbm3:1");
  }

  @Test
  void thisHostAsTheReferenceSlurmdSeesIt() throws Exception {
    Path slurmd = Path.of("/usr/sbin/slurmd");
    assumeTrue(Files.isExecutable(slurmd), "Slurm's slurmd is not installed here");
    Process p = new ProcessBuilder(slurmd.toString(), "-C").redirectErrorStream(true).start();
    String theirs = new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("");
    p.waitFor();
    String host = java.net.InetAddress.getLocalHost().getHostName().split("\\.")[0];
    assertThat(HardwareLine.read(Path.of("/")).render(host, "").lines().findFirst().orElseThrow()).isEqualTo(theirs);
  }
}
