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
  void keepsWhatTheUserAskedFor() throws Exception {
    JobSpec s = policy("DefMemPerCPU=250\n").normalize(bare().setMemPerNodeMb(1000)
        .setTimeLimitMin(30).setRequeue(true).build(), state);
    assertThat(s.hasMemPerCpuMb()).isFalse();
    assertThat(s.getMemPerNodeMb()).isEqualTo(1000);
    assertThat(s.getTimeLimitMin()).isEqualTo(30);
    assertThat(s.getRequeue()).isTrue();
  }

  @Test
  void refusesWhatCanNeverRunWithSlurmsErrors() throws Exception {
    SubmitPolicy p = policy("");
    assertThatThrownBy(() -> p.normalize(bare().setPartition("nosuch").build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_PARTITION_NAME));
    assertThatThrownBy(() -> p.normalize(bare().setCpusPerTask(9).build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    assertThatThrownBy(() -> p.normalize(bare().setMinNodes(3).build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    assertThatThrownBy(() -> p.normalize(bare().setDependency("afterok:99").build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_DEPENDENCY));
    assertThatThrownBy(() -> p.normalize(bare().setScript("").build(), state))
        .isInstanceOfSatisfying(SlurmException.class,
            e -> assertThat(e.error()).isEqualTo(SlurmError.JOB_SCRIPT_MISSING));
  }
}
