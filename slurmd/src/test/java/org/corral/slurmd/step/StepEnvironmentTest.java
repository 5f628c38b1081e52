package org.corral.slurmd.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

class StepEnvironmentTest {
  private static final TestUsers.User ROOT = new TestUsers.User("root", 0, 0);

  @Test
  void addsWhatSlurmSetsPerNodeAndTaskToSrunsEnvironment() {
    // As `srun -N2 -n3 -l env` shows them on the reference for tasks 0 and 1 on n1.
    LaunchTasksRequest request = StepRequests.request(ROOT, "/tmp", 1, spec -> { }).build();
    StepEnvironment env = new StepEnvironment(request, "n1", "/etc/slurm/slurm.conf");

    List<String> task1 = env.forTask(1, 1);
    assertThat(task1).contains("PATH=/usr/bin:/bin", "SLURM_JOB_ID=42", "SLURM_NTASKS=3", "SLURM_UMASK=0022",
        "SLURMD_NODENAME=n1", "SLURM_CONF=/etc/slurm/slurm.conf", "SLURM_CPUS_ON_NODE=2", "SLURM_GTIDS=0,1",
        "SLURM_NODEID=0", "SLURM_PROCID=1", "SLURM_LOCALID=1", "SLURM_TOPOLOGY_ADDR=n1",
        "SLURM_TOPOLOGY_ADDR_PATTERN=node", "SLURM_STEP_ID=0", "SLURM_STEPID=0", "SLURM_JOBID=42",
        "SLURM_JOB_UID=0", "SLURM_JOB_GID=0", "SLURM_JOB_USER=root", "SLURM_CLUSTER_NAME=testcluster",
        "TMPDIR=/tmp", "SLURM_JOB_NAME=env", "SLURM_JOB_PARTITION=debug", "SLURM_JOB_NODELIST=n[1-2]",
        "SLURM_JOB_NUM_NODES=2");
    assertThat(task1).noneMatch(e -> e.startsWith("SLURM_TASK_PID=")).noneMatch(e -> e.startsWith("PMI_"));
    assertThat(env.forTask(0, 0)).contains("SLURM_PROCID=0", "SLURM_LOCALID=0");
    assertThat(task1.stream().map(e -> e.substring(0, e.indexOf('='))).distinct()).hasSameSizeAs(task1);
  }

  @Test
  void theSecondNodeHasItsOwnIdsAndCpus() {
    LaunchTasksRequest request = StepRequests.request(ROOT, "/tmp", 1, spec -> { })
        .setNodeIndex(1).clearTaskIds().addTaskIds(2).build();
    List<String> task2 = new StepEnvironment(request, "n2", "/c").forTask(2, 0);
    assertThat(task2).contains("SLURMD_NODENAME=n2", "SLURM_NODEID=1", "SLURM_GTIDS=2", "SLURM_PROCID=2",
        "SLURM_LOCALID=0", "SLURM_CPUS_ON_NODE=1", "SLURM_TOPOLOGY_ADDR=n2");
  }

  @Test
  void pmi2AddsThePmiVariables() {
    // srun --mpi=pmi2 -N2 -n3: PMI_RANK, PMI_SIZE, PMI_JOBID=JOB.STEP, SLURM_MPI_TYPE=pmi2.
    LaunchTasksRequest request = StepRequests.request(ROOT, "/tmp", 1, spec -> spec.setMpi("pmi2")).build();
    assertThat(new StepEnvironment(request, "n1", "/c").forTask(1, 1))
        .contains("PMI_RANK=1", "PMI_SIZE=3", "PMI_JOBID=42.0", "SLURM_MPI_TYPE=pmi2");
  }
}
