package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.corral.common.config.CgroupConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The v1 backend against this host's real cgroup v1 controllers (skipped where they are not writable). */
class CgroupV1Test {
  private static final Path MOUNT = Path.of("/sys/fs/cgroup");
  private final String node = "v1test" + ProcessHandle.current().pid();
  private ResourceLimiter limiter;
  private JobScope job;

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(Files.isRegularFile(MOUNT.resolve("memory/cgroup.procs")), "no cgroup v1 memory controller here");
    CgroupConf conf = CgroupConf.parse("ConstrainCores=yes\nConstrainRAMSpace=yes\n", Path.of("cgroup.conf"));
    try {
      limiter = new CgroupV1(CgroupFs.kernel(), conf, MOUNT, ownPaths(), new NodeCgroupName("test-" + node, node), 4L << 30);
    } catch (IOException e) {
      assumeTrue(false, "cgroup v1 not writable here: " + e.getMessage());
    }
  }

  @AfterEach
  void tearDown() throws IOException {
    if (job != null) {
      job.remove();
    }
    if (limiter instanceof CgroupV1 v1) {
      List<Path> roots = v1.nodeRoots();
      v1.shutdown();
      assertThat(roots).allSatisfy(root -> assertThat(root).doesNotExist());
      assertThat(roots).allSatisfy(root -> assertThat(root.getParent()).doesNotExist()); // the cluster's level
    }
  }

  @Test
  void jobGetsItsLimitsAndItsProcessesJoinTheStep() throws Exception {
    BitSet cpus = new BitSet();
    cpus.set(0);
    job = limiter.limitJob(4242, 1234, cpus, 100L << 20);
    StepScope step = job.openStep("batch");
    Path memoryJob = step.procsFiles().get(0).getParent().getParent();
    assertThat(memoryJob.toString()).contains("test-" + node + "/slurm_" + node + "/uid_1234/job_4242");
    assertThat(Files.readString(memoryJob.resolve("memory.limit_in_bytes")).strip())
        .isEqualTo(Long.toString(100L << 20));
    Path cpusetJob = step.procsFiles().stream().filter(p -> p.toString().contains("/cpuset/")).findFirst()
        .orElseThrow().getParent().getParent();
    assertThat(Files.readString(cpusetJob.resolve("cpuset.cpus")).strip()).isEqualTo("0");

    String files = String.join(" ", step.procsFiles().stream().map(Path::toString).toList());
    Process p = new ProcessBuilder("/bin/sh", "-c",
        "for f in " + files + "; do echo $$ > $f; done; exec grep Cpus_allowed_list /proc/self/status")
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(out.strip()).isEqualTo("Cpus_allowed_list:\t0");
    assertThat(step.usage().userCpuMillis()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void outOfMemoryIsCountedAndOtherJobsAreUntouched() throws Exception {
    job = limiter.limitJob(4243, 0, new BitSet(), 40L << 20);
    StepScope step = job.openStep("batch");
    String files = String.join(" ", step.procsFiles().stream().map(Path::toString).toList());
    Process p = new ProcessBuilder("/bin/sh", "-c",
        "for f in " + files + "; do echo $$ > $f; done; head -c 200000000 /dev/zero | tail > /dev/null")
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isNotZero();
    assertThat(job.oomKills()).isPositive();
    assertThat(step.usage().oomKills()).isPositive();
  }

  @Test
  void aDaemonStartingRemovesOnlyTheIdleScopesOfJobsNotKept() throws Exception {
    JobScope ended = limiter.limitJob(4250, 0, new BitSet(), 0);
    ended.openStep("0");
    JobScope kept = limiter.limitJob(4251, 0, new BitSet(), 0);
    kept.openStep("batch");
    job = limiter.limitJob(4252, 0, new BitSet(), 0);
    StepScope step = job.openStep("0");
    String files = String.join(" ", step.procsFiles().stream().map(Path::toString).toList());
    Process p = new ProcessBuilder("/bin/sh", "-c", "for f in " + files + "; do echo $$ > $f; done; exec sleep 60")
        .start();
    try {
      for (int i = 0; i < 100 && step.pids().isEmpty(); i++) {
        Thread.sleep(20);
      }
      assertThat(limiter.removeIdleJobs(java.util.Set.of(4251))).containsExactly(4250);
      assertThat(limiter.findJob(4250)).isEmpty();
      assertThat(limiter.findJob(4251)).isPresent(); // in the spool: its batch script may still start
      assertThat(limiter.findJob(4252)).isPresent(); // a step's task still runs in it
      assertThat(step.pids()).contains(p.pid());
    } finally {
      kept.remove();
      p.destroyForcibly();
    }
  }

  @Test
  void removeKillsWhatIsLeftAndDeletesTheDirectories() throws Exception {
    job = limiter.limitJob(4244, 0, new BitSet(), 0);
    StepScope step = job.openStep("batch");
    String files = String.join(" ", step.procsFiles().stream().map(Path::toString).toList());
    Process p = new ProcessBuilder("/bin/sh", "-c", "for f in " + files + "; do echo $$ > $f; done; exec sleep 60")
        .start();
    for (int i = 0; i < 100 && step.pids().isEmpty(); i++) {
      Thread.sleep(20);
    }
    assertThat(step.pids()).contains(p.pid());
    job.remove();
    assertThat(p.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(step.procsFiles()).allSatisfy(f -> assertThat(f.getParent().getParent()).doesNotExist());
    assertThat(limiter.findJob(4244)).isEmpty();
    job = null;
  }

  @Test
  void anotherClusterWithTheSameNodeNamesNeverTouchesThisOnesTree() throws Exception {
    CgroupConf conf = CgroupConf.parse("ConstrainRAMSpace=yes\n", Path.of("cgroup.conf"));
    CgroupV1 other = new CgroupV1(CgroupFs.kernel(), conf, MOUNT, ownPaths(), new NodeCgroupName("other-" + node, node),
        4L << 30);
    JobScope theirs = other.limitJob(4260, 1234, new BitSet(), 0);
    theirs.openStep("batch");
    theirs.remove();
    other.shutdown(); // what stopping the other cluster's slurmd does
    assertThat(other.nodeRoots()).allSatisfy(root -> assertThat(root.getParent()).doesNotExist());

    job = limiter.limitJob(4261, 1234, new BitSet(), 50L << 20);
    StepScope step = job.openStep("batch");
    assertThat(step.procsFiles()).allSatisfy(f -> assertThat(f.getParent()).isDirectory());
  }

  private static java.util.Map<String, String> ownPaths() throws IOException {
    java.util.Map<String, String> paths = new java.util.HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3) {
        for (String c : parts[1].split(",")) {
          paths.put(c, parts[2]);
        }
      }
    }
    return paths;
  }

}
