package org.corral.slurmd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

class BatchEnvironmentTest {
  private static final TestUsers.User ALICE = new TestUsers.User("alice", 1001, 1002);
  private static final Path WORK = Path.of("/home/alice/run");

  @Test
  void aMultiNodeJobWithTasksAndCpusPerTaskSeesThemAsSlurmWritesThem() {
    // Like `sbatch -N 3 -n 3 -c 2 --mem=500`, which Slurm showed as 2(x3) cpus and 1(x3) tasks.
    LaunchBatchRequest request = request(List.of("HOME=/home/alice"));
    request = request.toBuilder()
        .setJob(request.getJob().toBuilder().setNodes("n[1-3]").setNumNodes(3).setNumCpus(6).setNumTasks(3)
            .setCpusPerTask(2).setMemPerCpuMb(0).setMemPerNodeMb(500).setAccount("physics")
            .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2))
            .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(2))
            .addAllocation(NodeAllocation.newBuilder().setNode("n3").setCpus(2)))
        .setSpec(request.getSpec().toBuilder().setNumTasks(3).setCpusPerTask(2).setExportEnv("ALL,X=1"))
        .setCpusOnNode(2)
        .build();

    Map<String, String> env = asMap(BatchEnvironment.of(request, "n1", WORK.toString()));

    assertThat(env).containsAllEntriesOf(Map.of(
        "SLURM_JOB_CPUS_PER_NODE", "2(x3)", "SLURM_TASKS_PER_NODE", "1(x3)", "SLURM_CPUS_ON_NODE", "2",
        "SLURM_CPUS_PER_TASK", "2", "SLURM_NTASKS", "3", "SLURM_NPROCS", "3", "SLURM_NNODES", "3",
        "SLURM_JOB_NODELIST", "n[1-3]", "SLURM_MEM_PER_NODE", "500", "SLURM_JOB_ACCOUNT", "physics"));
    assertThat(env).containsEntry("SLURM_EXPORT_ENV", "ALL,X=1").containsEntry("HOME", "/home/alice");
    assertThat(env).doesNotContainKey("SLURM_MEM_PER_CPU");
  }

  @Test
  void aJobsQosReservationDependencyAndRestartsAreInItsEnvironment() {
    // 22.05: sbatch -d afterany:11 --reservation=rv, then scontrol requeue: these four, each only when set
    LaunchBatchRequest request = request(List.of());
    Map<String, String> plain = asMap(BatchEnvironment.of(request, "n1", WORK.toString()));
    assertThat(plain).doesNotContainKeys("SLURM_JOB_QOS", "SLURM_JOB_RESERVATION", "SLURM_JOB_DEPENDENCY",
        "SLURM_RESTART_COUNT");
    request = request.toBuilder()
        .setJob(request.getJob().toBuilder().setQos("normal").setReservation("rv").setRestartCount(1))
        .setSpec(request.getSpec().toBuilder().setDependency("afterany:11"))
        .build();
    assertThat(asMap(BatchEnvironment.of(request, "n1", WORK.toString()))).containsAllEntriesOf(Map.of(
        "SLURM_JOB_QOS", "normal", "SLURM_JOB_RESERVATION", "rv", "SLURM_JOB_DEPENDENCY", "afterany:11",
        "SLURM_RESTART_COUNT", "1"));
  }

  @Test
  void tasksFollowTheCpusOfEachNode() {
    // `sbatch -N 2 -n 3` got cpus 2,1 and SLURM_TASKS_PER_NODE=2,1 from Slurm.
    LaunchBatchRequest request = request(List.of());
    request = request.toBuilder()
        .setJob(request.getJob().toBuilder().setNodes("n[1-2]").setNumNodes(2).setNumCpus(3).setNumTasks(3)
            .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2))
            .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(1)))
        .setSpec(request.getSpec().toBuilder().setNumTasks(3))
        .setCpusOnNode(0)
        .build();

    Map<String, String> env = asMap(BatchEnvironment.of(request, "n1", WORK.toString()));

    assertThat(env).containsEntry("SLURM_TASKS_PER_NODE", "2,1").containsEntry("SLURM_JOB_CPUS_PER_NODE", "2,1")
        .containsEntry("SLURM_CPUS_ON_NODE", "2");
  }

  @Test
  void tasksPerNodeAndOvercommitAreSeenAsSlurmWritesThem() {
    // `sbatch -N2 --ntasks-per-node=4`: 8 4 4(x2) 4(x2); `sbatch -N2 -O -n5`: 5 3,2 1(x2) and SLURM_OVERCOMMIT=1
    Map<String, String> perNode = asMap(BatchEnvironment.of(twoNodes(8, 4, 4, JobSpec.newBuilder().setNumTasks(8)
        .setNtasksPerNode(4)), "n1", WORK.toString()));
    assertThat(perNode).containsEntry("SLURM_NTASKS", "8").containsEntry("SLURM_NTASKS_PER_NODE", "4")
        .containsEntry("SLURM_TASKS_PER_NODE", "4(x2)").containsEntry("SLURM_JOB_CPUS_PER_NODE", "4(x2)")
        .doesNotContainKey("SLURM_OVERCOMMIT");
    Map<String, String> over = asMap(BatchEnvironment.of(twoNodes(5, 1, 1, JobSpec.newBuilder().setNumTasks(5)
        .setOvercommit(true)), "n1", WORK.toString()));
    assertThat(over).containsEntry("SLURM_NTASKS", "5").containsEntry("SLURM_TASKS_PER_NODE", "3,2")
        .containsEntry("SLURM_JOB_CPUS_PER_NODE", "1(x2)").containsEntry("SLURM_OVERCOMMIT", "1")
        .doesNotContainKey("SLURM_NTASKS_PER_NODE");
    Map<String, String> plane = asMap(BatchEnvironment.of(twoNodes(7, 6, 1, JobSpec.newBuilder().setNumTasks(7)
        .setDistribution("plane=2")), "n1", WORK.toString()));
    assertThat(plane).containsEntry("SLURM_DISTRIBUTION", "plane").containsEntry("SLURM_DIST_PLANESIZE", "2");
  }

  private static LaunchBatchRequest twoNodes(int tasks, int cpus1, int cpus2, JobSpec.Builder spec) {
    LaunchBatchRequest request = request(List.of());
    return request.toBuilder()
        .setJob(request.getJob().toBuilder().setNodes("n[1-2]").setNumNodes(2).setNumCpus(cpus1 + cpus2)
            .setNumTasks(tasks)
            .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(cpus1))
            .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(cpus2)))
        .setSpec(request.getSpec().toBuilder().mergeFrom(spec.build()))
        .setCpusOnNode(0)
        .build();
  }

  @Test
  void submittedValuesSlurmOwnsAreReplacedAndNodeOnlyOnesDropped() {
    Map<String, String> env = asMap(BatchEnvironment.of(
        request(List.of("SLURM_JOB_ID=1", "SLURM_UMASK=0022", "SLURM_TASK_PID=1", "=nameless", "NOEQUALS",
            "SLURM_SUBMIT_DIR=/where/sbatch/ran")),
        "n7", WORK.toString()));

    assertThat(env).containsEntry("SLURM_JOB_ID", "40").containsEntry("SLURMD_NODENAME", "n7")
        .containsEntry("SLURM_SUBMIT_DIR", "/where/sbatch/ran");
    assertThat(env).doesNotContainKeys("SLURM_UMASK", "SLURM_TASK_PID", "", "NOEQUALS");
  }

  @Test
  void aPlanResolvesOutputPathsAgainstTheWorkDirectoryAndRejectsBadRequests() {
    LaunchBatchRequest request = request(List.of("SLURM_UMASK=0077"));
    LaunchPlan plan = LaunchPlan.of(request, "n1", "vm");
    assertThat(plan.stdOut()).isEqualTo("/home/alice/run/slurm-40.out");
    assertThat(plan.stdErr()).isEmpty();
    assertThat(plan.stdIn()).isEqualTo("/dev/null");
    assertThat(plan.umask()).isEqualTo("0077");

    LaunchBatchRequest sameFiles = request.toBuilder()
        .setSpec(request.getSpec().toBuilder().setStdOut("/abs/%N-%j").setStdErr("/abs/vm-40")).build();
    assertThat(LaunchPlan.of(sameFiles, "n1", "vm").stdErr()).as("same file: shared").isEmpty();

    LaunchBatchRequest relative = request.toBuilder()
        .setJob(request.getJob().toBuilder().setWorkDir("relative/dir")).build();
    assertThatThrownBy(() -> LaunchPlan.of(relative, "n1", "vm"))
        .hasMessage("working directory is not an absolute path: 'relative/dir'");
  }

  private static LaunchBatchRequest request(List<String> env) {
    return LaunchRequests.batch(40, ALICE, WORK, "#!/bin/sh\ntrue\n", env, spec -> { });
  }

  private static Map<String, String> asMap(List<String> entries) {
    Map<String, String> map = new HashMap<>();
    for (String entry : entries) {
      int eq = entry.indexOf('=');
      assertThat(map.put(entry.substring(0, eq), entry.substring(eq + 1))).as("duplicate " + entry).isNull();
    }
    return map;
  }
}
