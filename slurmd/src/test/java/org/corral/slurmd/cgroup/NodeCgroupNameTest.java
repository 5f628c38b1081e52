package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.corral.common.config.SlurmConfig;
import org.junit.jupiter.api.Test;

class NodeCgroupNameTest {
  private static NodeCgroupName name(String clusterName, int port, String state) throws Exception {
    return NodeCgroupName.of(SlurmConfig.parse("ClusterName=" + clusterName + "\nSlurmctldHost=h(127.0.0.1)\n"
        + "SlurmctldPort=" + port + "\nStateSaveLocation=" + state + "\nNodeName=n1 CPUs=1\n", Path.of("slurm.conf")), "n1");
  }

  @Test
  void twoLocalClustersWithTheSameNamesGetTreesOfTheirOwn() throws Exception {
    NodeCgroupName first = name("corral", 7210, "/tmp/a/state");
    assertThat(first.cluster()).matches("corral-[0-9a-f]{8}");
    assertThat(first.nodeDir(Path.of("/sys/fs/cgroup/memory")).toString())
        .isEqualTo("/sys/fs/cgroup/memory/" + first.cluster() + "/slurm_n1");
    // the same cluster restarted finds its tree again
    assertThat(name("corral", 7210, "/tmp/a/state")).isEqualTo(first);
    assertThat(name("corral", 7220, "/tmp/a/state").cluster()).isNotEqualTo(first.cluster());
    assertThat(name("corral", 7210, "/tmp/b/state").cluster()).isNotEqualTo(first.cluster());
  }

  @Test
  void aClusterNameIsMadeSafeForADirectoryName() throws Exception {
    assertThat(name("../x:y", 6817, "/var/spool/slurmctld").cluster()).matches("_._x_y-[0-9a-f]{8}");
    assertThatThrownBy(() -> new NodeCgroupName("..", "n1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new NodeCgroupName("a/b", "n1")).isInstanceOf(IllegalArgumentException.class);
  }
}
