package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

class SubmitPolicyTest {
  private final ClusterState state = TestStates.cluster(2, 8, 4000);

  private static SubmitPolicy policy(String extra) throws Exception {
    return new SubmitPolicy(SlurmConfig.parse("""
        ClusterName=t
        SlurmctldHost=localhost
        NodeName=n[1-2] CPUs=8 RealMemory=4000
        PartitionName=debug Nodes=ALL Default=YES
        """ + extra, Path.of("/etc/slurm/slurm.conf")));
  }

  private static JobSpec.Builder bare() {
    return JobSpec.newBuilder().setScript("#!/bin/sh\ntrue\n").setWorkDir("/home/a");
  }

  @Test
  void fillsInWhatTheSiteDecides() throws Exception {
    JobSpec s = policy("DefMemPerCPU=250\nJobRequeue=0\n").normalize(bare().build(), state);
    assertThat(s.getPartition()).isEqualTo("debug");
    assertThat(s.getMemPerCpuMb()).isEqualTo(250);
    assertThat(s.getRequeue()).isFalse();
    assertThat(s.getName()).isEqualTo("sbatch");
    assertThat(Integer.toUnsignedLong(s.getTimeLimitMin())).isEqualTo(0xFFFFFFFFL);
  }

  @Test
  void oversubscribeExclusiveGivesEveryJobWholeNodes() throws Exception {
    var debug = state.partition("debug").orElseThrow().toBuilder().setOversubscribe("EXCLUSIVE").build();
    ClusterState exclusive = org.corral.ctld.state.StateMachine.apply(state, new org.corral.ctld.state.Command.LoadConfig(
        java.util.List.copyOf(state.nodes().values()), java.util.List.of(debug), 200));
    assertThat(policy("").normalize(bare().build(), exclusive).getExclusive()).isTrue();
    assertThat(policy("").normalize(bare().build(), state).getExclusive()).isFalse();
  }

  /** Held jobs on the reference with MaxMemPerCPU=200, as scontrol showed them (CPUs/Task, MinMemoryCPU, MinCPUsNode). */
  @Test
  void moreMemoryPerCpuThanMaxMemPerCpuTakesMoreCpusPerTask() throws Exception {
    SubmitPolicy p = policy("DefMemPerCPU=100\nMaxMemPerCPU=200\n");
    JobSpec over = p.normalize(bare().setMemPerCpuMb(500).build(), state);
    assertThat(over.getCpusPerTask()).isEqualTo(3);
    assertThat(over.getMemPerCpuMb()).isEqualTo(167);
    JobSpec twoCpus = p.normalize(bare().setMemPerCpuMb(500).setCpusPerTask(2).build(), state);
    assertThat(twoCpus.getCpusPerTask()).isEqualTo(6);
    assertThat(twoCpus.getMemPerCpuMb()).isEqualTo(167);
    JobSpec atMax = p.normalize(bare().setMemPerCpuMb(200).build(), state);
    assertThat(atMax.hasCpusPerTask()).isFalse();
    assertThat(atMax.getMemPerCpuMb()).isEqualTo(200);
    assertThat(p.normalize(bare().setMemPerNodeMb(1000).build(), state).getMinCpusPerNode()).isEqualTo(5);
    assertThat(policy("").normalize(bare().setMemPerCpuMb(500).build(), state).hasCpusPerTask()).isFalse();
  }

  @Test
  void disableRootJobsRefusesRootOnly() throws Exception {
    assertThatThrownBy(() -> policy("DisableRootJobs=YES\n").admit(0)).isInstanceOfSatisfying(
        SlurmException.class, e -> assertThat(e.error()).isEqualTo(org.corral.common.SlurmError.USER_ID_MISSING));
    policy("DisableRootJobs=YES\n").admit(1000);
    policy("").admit(0);
  }

  @Test
  void keepsWhatTheUserAskedFor() throws Exception {
    JobSpec s = policy("DefMemPerCPU=250\n").normalize(bare().setMemPerNodeMb(1000)
        .setTimeLimitMin(30).setRequeue(true).build(), state);
    assertThat(s.hasMemPerCpuMb()).isFalse();
    assertThat(s.getMemPerNodeMb()).isEqualTo(1000);
    assertThat(s.getTimeLimitMin()).isEqualTo(30);
    assertThat(s.getRequeue()).isTrue();
  }

  @Test
  void takesTheFirstOfAPartitionListAndLowerCasesTheAccount() throws Exception {
    JobSpec s = policy("").normalize(bare().setPartition("debug,debug").setAccount("MiXed").build(), state);
    assertThat(s.getPartition()).isEqualTo("debug");
    assertThat(s.getAccount()).isEqualTo("mixed");
  }

  /** NumNodes of held jobs on the reference (8-CPU nodes), as scontrol showed them. */
  @Test
  void takesAsManyNodesAsTheTasksNeed() throws Exception {
    SubmitPolicy p = policy("");
    JobSpec n12 = p.normalize(bare().setNumTasks(12).build(), state);
    assertThat(n12.getMinNodes()).isEqualTo(2);
    assertThat(n12.hasMaxNodes()).isFalse();
    assertThat(p.normalize(bare().setNumTasks(12).setCpusPerTask(2).build(), state).getMinNodes()).isEqualTo(3);
    JobSpec range = p.normalize(bare().setNumTasks(12).setMinNodes(1).setMaxNodes(4).build(), state);
    assertThat(range.getMinNodes()).isEqualTo(2);
    assertThat(range.getMaxNodes()).isEqualTo(4);
    JobSpec fewTasks = p.normalize(bare().setNumTasks(2).setMinNodes(1).setMaxNodes(3).build(), state);
    assertThat(fewTasks.getMinNodes()).isEqualTo(1);
    assertThat(fewTasks.getMaxNodes()).isEqualTo(2);
    JobSpec fixed = p.normalize(bare().setNumTasks(12).setMinNodes(1).setMaxNodes(1).build(), state);
    assertThat(fixed.getMinNodes()).isEqualTo(1); // -N1 -n12 stays as asked (and waits)
    JobSpec perNode = p.normalize(bare().setMinNodes(2).setMaxNodes(2).setNtasksPerNode(4).build(), state);
    assertThat(perNode.getNumTasks()).isEqualTo(8);
    assertThat(p.normalize(bare().setNumTasks(1).build(), state).hasMinNodes()).isFalse();
  }

  @Test
  void refusesWhatSlurmRefusesAtSubmit() throws Exception {
    SubmitPolicy p = policy("");
    assertThatThrownBy(() -> p.normalize(bare().setPartition("nosuch").build(), state))
        .hasMessage("invalid partition specified: nosuch")
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_PARTITION_NAME));
    assertThatThrownBy(() -> p.normalize(bare().setPartition("debug,NOSUCH").build(), state))
        .hasMessage("invalid partition specified: NOSUCH")
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_PARTITION_NAME));
    assertThatThrownBy(() -> p.normalize(bare().setMemPerNodeMb(999_999).build(), state))
        .hasMessage("Memory specification can not be satisfied")
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    assertThatThrownBy(() -> p.normalize(bare().setDependency("afterwards:1").build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_DEPENDENCY));
    assertThatThrownBy(() -> p.normalize(bare().setScript("").build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.JOB_SCRIPT_MISSING));
  }

  @Test
  void acceptsWhatSlurmLetsWait() throws Exception {
    // Slurm 22.05 takes these and leaves them pending (PartitionConfig, PartitionNodeLimit) or,
    // for a dependency on an unknown job, runs them.
    SubmitPolicy p = policy("");
    assertThat(p.normalize(bare().setCpusPerTask(99).build(), state).getCpusPerTask()).isEqualTo(99);
    assertThat(p.normalize(bare().setMinNodes(9).build(), state).getMinNodes()).isEqualTo(9);
    assertThat(p.normalize(bare().setDependency("afterok:99999").build(), state).getDependency())
        .isEqualTo("afterok:99999");
  }

  @Test
  void enforcePartLimitsRefusesWhatWouldOtherwiseWait() throws Exception {
    SubmitPolicy p = policy("EnforcePartLimits=ALL\n");
    ClusterState limited = TestStates.cluster(2, 8, 4000);
    limited = new ClusterState(limited.jobs(), limited.nodes(), limited.nodeOrder(), java.util.List.of(
        limited.partitions().get(0).toBuilder().setMaxTimeMin(10).setMaxNodes(1).build()),
        limited.nextJobId(), limited.lastUpdate(), limited.outbox());
    ClusterState st = limited;
    assertThatThrownBy(() -> p.normalize(bare().setTimeLimitMin(20).build(), st))
        .isInstanceOfSatisfying(SlurmException.class, e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_TIME_LIMIT));
    assertThatThrownBy(() -> p.normalize(bare().setTimeLimitMin(5).setMinNodes(2).build(), st))
        .isInstanceOfSatisfying(SlurmException.class, e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_NODE_COUNT));
    assertThatThrownBy(() -> p.normalize(bare().setTimeLimitMin(5).setCpusPerTask(99).build(), st))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.TOO_MANY_REQUESTED_CPUS));
    assertThat(p.normalize(bare().setTimeLimitMin(5).build(), st).getTimeLimitMin()).isEqualTo(5);
  }
}
