package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.BitSet;
import java.util.List;
import org.corral.common.config.CgroupConf;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.StepUsage;
import org.corral.slurmd.cgroup.LimiterSelection;
import org.corral.slurmd.cgroup.NodeCgroupName;
import org.corral.slurmd.cgroup.ResourceLimiter;
import org.corral.slurmd.usage.ProcReader;
import org.corral.testkit.TestUsers;
import org.corral.testkit.TestUsers.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch jobs in real cgroups (this host's v1 controllers): pinned to their cores, killed by the
 * kernel past their memory, measured. Skipped without root or writable cgroups.
 */
class JobConfinementTest {
  @TempDir Path tmp;
  private Path spool;
  private Path work;
  private User alice;
  private final JobRecorder recorder = new JobRecorder();
  private JobSupervisor supervisor;
  private ResourceLimiter limiter;
  private JobConfinement confinement;
  private final String node = "ct" + ProcessHandle.current().pid();

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(TestUsers.canCreate(), "launching jobs as other users needs root");
    CgroupConf conf = CgroupConf.parse("CgroupPlugin=cgroup/v1\nConstrainCores=yes\nConstrainRAMSpace=yes\n",
        Path.of("cgroup.conf"));
    limiter = LimiterSelection.choose(conf, new NodeCgroupName("test-" + node, node), 4L << 30);
    assumeTrue(limiter.confines(), "cgroup v1 is not writable here");
    assumeTrue(JobConfinement.hostCpus().cardinality() >= 2, "needs two CPUs");
    alice = TestUsers.ensure(TestUsers.ALICE);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    spool = tmp.resolve("spool");
    work = Files.createDirectories(tmp.resolve("work"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    BitSet host = JobConfinement.hostCpus();
    confinement = new JobConfinement(limiter, 2, host, ProcReader.system(), "n1");
    supervisor = new JobSupervisor(spool, "n1", Clock.systemUTC(), recorder, confinement, 1);
  }

  @AfterEach
  void tearDown() {
    if (supervisor != null) {
      supervisor.close();
    }
    if (limiter != null && limiter.confines()) {
      confinement.awaitRemovals();
      for (int id : List.of(61, 62, 63, 64)) {
        limiter.findJob(id).ifPresent(j -> j.remove());
      }
      limiter.shutdown();
    }
  }

  private LaunchBatchRequest request(int jobId, String script, long memMb) {
    LaunchBatchRequest r = LaunchRequests.batch(jobId, alice, work, script, List.of(), spec -> { });
    return r.toBuilder().setMemOnNodeMb(memMb).build();
  }

  @Test
  void eachJobRunsOnItsOwnCore() throws Exception {
    supervisor.launch(request(61, "#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status\nsleep 2\n", 100));
    supervisor.launch(request(62, "#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status\n", 100));
    assertThat(recorder.await(62).exitStatus()).isZero();
    assertThat(recorder.await(61).exitStatus()).isZero();
    BitSet host = JobConfinement.hostCpus();
    int first = host.nextSetBit(0);
    int second = host.nextSetBit(first + 1);
    assertThat(Files.readString(work.resolve("slurm-61.out"))).isEqualTo("Cpus_allowed_list:\t" + first + "\n");
    assertThat(Files.readString(work.resolve("slurm-62.out"))).isEqualTo("Cpus_allowed_list:\t" + second + "\n");
    confinement.awaitRemovals();
    assertThat(limiter.findJob(61)).isEmpty();
    assertThat(recorder.outOfMemory(61)).isFalse();
  }

  @Test
  void aJobBeyondItsMemoryIsReportedOutOfMemoryAndItsNeighbourIsNot() throws Exception {
    supervisor.launch(request(63, "#!/bin/sh\nhead -c 300000000 /dev/zero | tail > /dev/null\necho after\n", 50));
    supervisor.launch(request(64, "#!/bin/sh\nhead -c 20000000 /dev/zero | tail > /dev/null\necho fine\n", 100));
    recorder.await(63);
    assertThat(recorder.await(64).exitStatus()).isZero();
    assertThat(recorder.outOfMemory(63)).isTrue();
    assertThat(recorder.outOfMemory(64)).isFalse();
    assertThat(Files.readString(work.resolve("slurm-64.out"))).isEqualTo("fine\n");
    // As slurmstepd, the wrapper tells the job's stderr (here its output file) what happened.
    assertThat(Files.readString(work.resolve("slurm-63.out"))).matches("(?s).*slurmstepd-n1: error: Detected 1"
        + " oom-kill event\\(s\\) in StepId=63\\.batch cgroup\\. Some of your processes may have been killed by the"
        + " cgroup out-of-memory handler\\.\n");
  }

  @Test
  void usageOfARunningJobComesFromItsProcesses() throws Exception {
    supervisor.launch(request(61, "#!/bin/sh\n(head -c 30000000 /dev/zero; sleep 30) | tail > /dev/null\n", 200));
    StepUsage usage = null;
    for (int i = 0; i < 100; i++) {
      usage = supervisor.batchUsage(61).orElse(null);
      if (usage != null && usage.getMaxRssKb() > 20_000 && usage.getPidsCount() >= 2) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(usage).isNotNull();
    assertThat(usage.getStep()).isEqualTo("batch");
    assertThat(usage.getNtasks()).isEqualTo(1);
    assertThat(usage.getMaxRssKb()).isGreaterThan(20_000);
    assertThat(usage.getMaxVmsizeKb()).isGreaterThan(usage.getMaxRssKb());
    assertThat(usage.getMaxRssNode()).isEqualTo("n1");
    assertThat(usage.getPidsCount()).isGreaterThanOrEqualTo(2);
    assertThat(supervisor.batchUsage(99)).isEmpty();
    supervisor.signal(61, 9, 0);
    recorder.await(61);
  }
}
