package org.corral.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalConfigWriterTest {
  @TempDir Path dir;

  @Test
  void defaultClusterIsARealSlurmConfWithPortsFromTheBase() throws Exception {
    ClusterOptions o = ClusterOptions.parse(List.of("--nodes", "3", "--cpus", "2", "--memory=1500",
        "--dir", dir.toString(), "--port-base", "7000"));
    SlurmConfig cfg = SlurmConfig.parse(LocalConfigWriter.defaultConfig(o), dir.resolve("slurm.conf"));
    // MaxJobCount sizes the controller's heap (libexec/ctld-heap.sh) but limits no submission yet
    assertThat(cfg.warnings()).containsExactly(
        "slurm.conf: read but not implemented by Corral, without effect: MaxJobCount");
    assertThat(cfg.slurmctldPort()).isEqualTo(7000);
    assertThat(cfg.nodes()).extracting(NodeConfig::name).containsExactly("n1", "n2", "n3");
    assertThat(cfg.nodes()).extracting(NodeConfig::port).containsExactly(7011, 7012, 7013);
    assertThat(cfg.nodes()).allSatisfy(n -> {
      assertThat(n.cpus()).isEqualTo(2);
      assertThat(n.realMemoryMb()).isEqualTo(1500);
    });
    assertThat(cfg.partitions()).singleElement().satisfies(p -> {
      assertThat(p.name()).isEqualTo("debug");
      assertThat(p.isDefault()).isTrue();
    });
    assertThat(cfg.stateSaveLocation()).isEqualTo(dir.resolve("state"));
  }

  @Test
  void givenConfigKeepsWhatItSetsAndGainsWhatAOneHostClusterNeeds() throws Exception {
    Path given = dir.resolve("site.conf");
    Files.writeString(given, """
        ClusterName=site
        SlurmctldPort=9999
        NodeName=gpu[01-02] CPUs=4 RealMemory=8000
        NodeName=big Port=9100 CPUs=64
        PartitionName=all Nodes=ALL Default=YES
        """);
    Files.writeString(dir.resolve("cgroup.conf"), "ConstrainCores=yes\n");
    Path clusterDir = Files.createDirectory(dir.resolve("c"));
    ClusterOptions o = ClusterOptions.parse(List.of("--dir", clusterDir.toString(),
        "--port-base", "7000", "--config", given.toString()));
    SlurmConfig cfg = SlurmConfig.parse(LocalConfigWriter.fromFile(o), clusterDir.resolve("slurm.conf"));
    assertThat(cfg.clusterName()).isEqualTo("site");
    assertThat(cfg.slurmctldPort()).isEqualTo(9999);
    assertThat(cfg.nodes()).extracting(NodeConfig::port).containsExactly(7011, 7012, 9100);
    assertThat(cfg.nodes()).extracting(NodeConfig::addr).containsOnly("127.0.0.1");
    assertThat(cfg.slurmctldPidFile()).isEqualTo(clusterDir + "/slurmctld.pid");
    assertThat(clusterDir.resolve("cgroup.conf")).hasContent("ConstrainCores=yes");
  }

  @Test
  void badOptionsAreRefusedClearly() {
    assertThatThrownBy(() -> ClusterOptions.parse(List.of("--nodes", "x")))
        .hasMessage("option --nodes needs a number, not 'x'");
    assertThatThrownBy(() -> ClusterOptions.parse(List.of("--nodes", "0")))
        .hasMessage("option --nodes must be at least 1");
    assertThatThrownBy(() -> ClusterOptions.parse(List.of("--bogus", "1")))
        .hasMessage("unknown option --bogus");
    assertThatThrownBy(() -> ClusterOptions.parse(List.of("--port-base", "80")))
        .hasMessage("--port-base must be between 1024 and 65000");
  }
}
