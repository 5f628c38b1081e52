package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.corral.common.config.CgroupConf;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v2 backend's file writes, against a directory tree laid out like a cgroup2 mount (this
 * host's cgroup v2 tree has no controllers to give).
 */
class CgroupV2Test {
  @TempDir Path mount;
  private Path own;

  @BeforeEach
  void layOut() throws IOException {
    own = Files.createDirectories(mount.resolve("system.slice/slurmd.service"));
    Files.writeString(own.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
    Files.writeString(own.resolve("cgroup.subtree_control"), "");
    Files.writeString(own.resolve("cgroup.procs"), "77\n");
  }

  private CgroupV2 backend(String conf) throws Exception {
    return new CgroupV2(CgroupFs.plainTree(), CgroupConf.parse(conf, Path.of("cgroup.conf")), mount,
        "/system.slice/slurmd.service", new NodeCgroupName("c1", "n1"), 1000L << 20, 77);
  }

  @Test
  void delegatesControllersAndSetsTheJobsLimits() throws Exception {
    CgroupV2 v2 = backend("ConstrainCores=yes\nConstrainRAMSpace=yes\nAllowedRAMSpace=50\n"
        + "ConstrainSwapSpace=yes\nAllowedSwapSpace=10\n");
    assertThat(v2.name()).isEqualTo("cgroup/v2");
    assertThat(Files.readString(own.resolve("cgroup.subtree_control"))).isEqualTo("+cpuset +memory +cpu\n");
    BitSet cpus = new BitSet();
    cpus.set(2, 4);
    JobScope job = v2.limitJob(42, 1000, cpus, 200L << 20);
    Path jobDir = own.resolve("c1/slurm_n1/uid_1000/job_42");
    assertThat(Files.readString(own.resolve("c1/slurm_n1/cgroup.subtree_control"))).isEqualTo("+cpuset +memory +cpu\n");
    assertThat(Files.readString(own.resolve("c1/slurm_n1/uid_1000/cgroup.subtree_control"))).isEqualTo("+cpuset +memory +cpu\n");
    assertThat(Files.readString(jobDir.resolve("cgroup.subtree_control"))).isEqualTo("+cpuset +memory +cpu\n");
    assertThat(Files.readString(jobDir.resolve("memory.max"))).isEqualTo((100L << 20) + "\n");
    assertThat(Files.readString(jobDir.resolve("memory.swap.max"))).isEqualTo((20L << 20) + "\n");
    assertThat(Files.readString(jobDir.resolve("cpuset.cpus"))).isEqualTo("2-3\n");

    StepScope step = job.openStep("batch");
    assertThat(step.procsFiles()).containsExactly(jobDir.resolve("step_batch/cgroup.procs"));
    assertThat(jobDir.resolve("step_batch/cgroup.subtree_control")).doesNotExist();
    assertThat(job.steps()).containsExactly("batch");
  }

  @Test
  void aCgroupSharedWithOtherProcessesPutsTheNodeUnderTheTopOfTheTree() throws Exception {
    // As on a host where the daemons start from a shell: the kernel refuses to delegate from a
    // cgroup that still holds processes (EBUSY), even after the daemon moved out.
    CgroupFs shared = new CgroupFs() {
      @Override
      void write(Path file, String value) throws IOException {
        if (file.equals(own.resolve("cgroup.subtree_control"))) {
          throw new IOException("cannot write '" + value + "' to " + file + ": Device or resource busy");
        }
        Files.writeString(file, value + "\n");
      }
    };
    Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
    CgroupV2 v2 = new CgroupV2(shared, CgroupConf.parse("ConstrainRAMSpace=yes\n", Path.of("cgroup.conf")),
        mount, "/system.slice/slurmd.service", new NodeCgroupName("c1", "n1"), 1000L << 20, 77);
    assertThat(Files.readString(mount.resolve("corral/cgroup.subtree_control"))).isEqualTo("+cpuset +memory +cpu\n");
    assertThat(Files.readString(mount.resolve("corral/c1/slurm_n1/cgroup.subtree_control")))
        .isEqualTo("+cpuset +memory +cpu\n");
    v2.limitJob(5, 1000, new BitSet(), 100L << 20);
    assertThat(Files.readString(mount.resolve("corral/c1/slurm_n1/uid_1000/job_5/memory.max")))
        .isEqualTo((100L << 20) + "\n");
  }

  @Test
  void anOwnCgroupWithoutCpusetServesFromTheTopWhenCoresAreConstrained() throws Exception {
    // As on a host whose agent's cgroup was given memory but not cpuset.
    Files.writeString(own.resolve("cgroup.controllers"), "cpu io memory pids\n");
    Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
    backend("ConstrainCores=yes\n");
    assertThat(Files.readString(mount.resolve("corral/c1/slurm_n1/cgroup.subtree_control")))
        .isEqualTo("+cpuset +memory +cpu\n");
    Files.delete(mount.resolve("cgroup.controllers")); // and with no cgroup2 at the top either
    assertThatThrownBy(() -> backend("ConstrainCores=yes\n")).hasMessageContaining(
        "ConstrainCores needs the cgroup2 cpuset controller, not offered at " + own + "; and at the top, no cgroup2 tree at");
  }

  @Test
  void readsUsageAndOomKillsFromTheKernelFiles() throws Exception {
    CgroupV2 v2 = backend("ConstrainRAMSpace=yes\n");
    JobScope job = v2.limitJob(7, 0, new BitSet(), 0);
    StepScope step = job.openStep("batch");
    Path dir = step.procsFiles().get(0).getParent();
    Files.writeString(dir.resolve("cpu.stat"), "usage_usec 3500000\nuser_usec 3000000\nsystem_usec 500000\n");
    Files.writeString(dir.resolve("memory.peak"), "1048576\n");
    Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");
    Files.writeString(dir.getParent().resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");
    Files.writeString(dir.resolve("cgroup.procs"), "100\n101\n");
    assertThat(step.usage()).isEqualTo(new CgroupUsage(3000, 500, 1048576, 1));
    assertThat(step.pids()).containsExactly(100L, 101L);
    assertThat(job.oomKills()).isEqualTo(1);
    // With no memory request the job may use the node's memory (RealMemory).
    assertThat(Files.readString(dir.getParent().resolve("memory.max"))).isEqualTo((1000L << 20) + "\n");
  }

  @Test
  void removeDeletesTheJobAndShutdownTheEmptyUserLevel() throws Exception {
    CgroupV2 v2 = backend("");
    JobScope job = v2.limitJob(8, 500, new BitSet(), 0);
    job.openStep("batch");
    assertThat(v2.findJob(8)).isPresent();
    job.remove();
    assertThat(own.resolve("c1/slurm_n1/uid_500/job_8")).doesNotExist();
    assertThat(own.resolve("c1/slurm_n1/uid_500")).isDirectory();
    assertThat(v2.findJob(8)).isEmpty();
    v2.shutdown();
    assertThat(own.resolve("c1/slurm_n1/uid_500")).doesNotExist();
  }

  @Test
  void refusesATreeWithoutTheMemoryController() throws Exception {
    Files.writeString(own.resolve("cgroup.controllers"), "cpu pids\n");
    assertThatThrownBy(() -> backend("")).isInstanceOf(IOException.class).hasMessageContaining("memory");
  }

  @Test
  void stepIdsCannotEscapeTheJobDirectory() throws Exception {
    JobScope job = backend("").limitJob(9, 0, new BitSet(), 0);
    assertThatThrownBy(() -> job.openStep("../x")).isInstanceOf(IllegalArgumentException.class);
  }
}
