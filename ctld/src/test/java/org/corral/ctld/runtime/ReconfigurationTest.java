package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.ConfigFile;
import org.corral.protocol.msg.ConfigFilesRequest;
import org.corral.protocol.msg.ConfigRequest;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoRequest;
import org.corral.protocol.msg.PartitionUpdateRequest;
import org.corral.protocol.msg.ReconfigureRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scontrol reconfigure on an in-process controller: slurm.conf's partitions and keys applied,
 * a broken file or a changed node count refused with the running configuration kept; partitions
 * changed by scontrol survive a restart only with -R; configless files served only when enabled.
 */
class ReconfigurationTest {
  @TempDir Path dir;
  private int port;

  private SlurmConfig write(String extra, String partitions) throws Exception {
    return TestClusterConfig.write(dir, port, """
        SlurmdTimeout=300
        NodeName=n[1-2] NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        """.formatted(FreePorts.one()) + extra + partitions);
  }

  private static Response call(UnixSocketChannel ch, Request r) throws Exception {
    return ch.call(r);
  }

  private static Response reconfigure(UnixSocketChannel ch) throws Exception {
    return ch.call(Request.newBuilder().setReconfigure(ReconfigureRequest.getDefaultInstance()).build());
  }

  private static List<PartitionInfo> partitions(UnixSocketChannel ch) throws Exception {
    return ch.call(Request.newBuilder().setPartitionInfo(PartitionInfoRequest.newBuilder().setAll(true)).build())
        .getPartitionInfo().getPartitionsList();
  }

  private static String configValue(UnixSocketChannel ch, String key) throws Exception {
    return ch.call(Request.newBuilder().setConfig(ConfigRequest.getDefaultInstance()).build()).getConfig()
        .getEntriesList().stream().filter(e -> e.getKey().equals(key)).map(e -> e.getValue()).findFirst().orElse(null);
  }

  private Controller start(SlurmConfig cfg, boolean recoverPartitions) throws Exception {
    return Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, recoverPartitions, Duration.ofSeconds(2));
  }

  @Test
  void reconfigureAppliesSlurmConfAndRefusesWhatItCannotUse() throws Exception {
    port = FreePorts.one();
    SlurmConfig cfg = write("KillWait=30\n", "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    try (Controller ctld = start(cfg, false)) {
      UnixSocketChannel ch = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(configValue(ch, "KillWait")).isEqualTo("30 sec");

      String conf = Files.readString(cfg.path());
      Files.writeString(cfg.path(), conf.replace("KillWait=30", "KillWait=45").replace("MaxTime=INFINITE", "MaxTime=60")
          + "PartitionName=gpu Nodes=n2 MaxTime=5\n");
      assertThat(reconfigure(ch).getErrorCode()).isZero();
      assertThat(partitions(ch)).extracting(PartitionInfo::getName).containsExactly("debug", "gpu");
      assertThat(partitions(ch).get(0).getMaxTimeMin()).isEqualTo(60);
      assertThat(configValue(ch, "KillWait")).isEqualTo("45 sec");

      // a broken file: refused with its file, line and reason; nothing changes
      String good = Files.readString(cfg.path());
      Files.writeString(cfg.path(), good.replace("CPUs=4", "CPUs=abc").replace("MaxTime=60", "MaxTime=1"));
      Response refused = reconfigure(ch);
      assertThat(refused.getErrorCode()).isEqualTo(SlurmError.UNEXPECTED.code());
      assertThat(refused.getErrorMessage()).contains(cfg.path().toString(), "line ", "CPUs");
      assertThat(partitions(ch).get(0).getMaxTimeMin()).isEqualTo(60);

      // nodes added: a restart's work, as in Slurm
      Files.writeString(cfg.path(), good.replace("NodeName=n[1-2]", "NodeName=n[1-3]"));
      Response restart = reconfigure(ch);
      assertThat(restart.getErrorCode()).isEqualTo(SlurmError.NEED_RESTART.code());
      assertThat(restart.getErrorMessage()).isEqualTo(
          "MaxNodeCount has changed (2->3) during reconfig, slurmctld must be restarted");

      // configless files: refused until enabled, then slurm.conf and its siblings, never the key
      Files.writeString(cfg.path(), good);
      Request files = Request.newBuilder().setConfigFiles(ConfigFilesRequest.getDefaultInstance()).build();
      assertThat(call(ch, files).getErrorCode()).isEqualTo(SlurmError.CONFIGLESS_DISABLED.code());
      Files.writeString(cfg.path(), good + "SlurmctldParameters=enable_configless\n");
      Files.writeString(dir.resolve("cgroup.conf"), "ConstrainCores=yes\n");
      assertThat(reconfigure(ch).getErrorCode()).isZero();
      Response served = call(ch, files);
      assertThat(served.getErrorCode()).isZero();
      assertThat(served.getConfigFiles().getFilesList()).extracting(ConfigFile::getName)
          .containsExactly("slurm.conf", "cgroup.conf");
      assertThat(served.getConfigFiles().getFiles(0).getContent().toStringUtf8()).contains("enable_configless");
    }
  }

  @Test
  void partitionChangesSurviveARestartOnlyWithDashR() throws Exception {
    port = FreePorts.one();
    SlurmConfig cfg = write("", "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
    Request update = Request.newBuilder().setUpdatePartition(PartitionUpdateRequest.newBuilder()
        .putFields("partitionname", "debug").putFields("maxtime", "30")).build();
    Request create = Request.newBuilder().setUpdatePartition(PartitionUpdateRequest.newBuilder().setCreate(true)
        .putFields("partitionname", "made").putFields("nodes", "n2")).build();
    try (Controller ctld = start(cfg, false)) {
      UnixSocketChannel ch = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(call(ch, update).getErrorCode()).isZero();
      assertThat(call(ch, create).getErrorCode()).isZero();
    }
    try (Controller ctld = start(cfg, true)) { // -R: as saved
      UnixSocketChannel ch = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(partitions(ch)).extracting(PartitionInfo::getName).containsExactly("debug", "made");
      assertThat(partitions(ch).get(0).getMaxTimeMin()).isEqualTo(30);
    }
    try (Controller ctld = start(cfg, false)) { // a plain start: slurm.conf's
      UnixSocketChannel ch = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(partitions(ch)).extracting(PartitionInfo::getName).containsExactly("debug");
      assertThat(partitions(ch).get(0).getMaxTimeMin()).isEqualTo(-1);
    }
    try (Controller ctld = start(cfg, true)) { // and -R now restores what that start served
      UnixSocketChannel ch = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(partitions(ch)).extracting(PartitionInfo::getName).containsExactly("debug");
      assertThat(call(ch, update).getErrorCode()).isZero();
      assertThat(reconfigure(ch).getErrorCode()).isZero(); // reconfigure: slurm.conf's again
      assertThat(partitions(ch).get(0).getMaxTimeMin()).isEqualTo(-1);
    }
  }

  @Test
  void reconfigFlagsKeepWhatScontrolChanged() {
    PartitionInfo confDebug = PartitionInfo.newBuilder().setName("debug").setState("UP").setMaxTimeMin(60).build();
    PartitionInfo confNew = PartitionInfo.newBuilder().setName("new").setState("UP").build();
    PartitionInfo liveDebug = confDebug.toBuilder().setState("DRAIN").setMaxTimeMin(5).build();
    PartitionInfo liveMade = PartitionInfo.newBuilder().setName("made").setState("UP").build();
    List<PartitionInfo> conf = List.of(confDebug, confNew);
    List<PartitionInfo> live = List.of(liveDebug, liveMade);
    assertThat(Reconfiguration.kept(conf, live, "")).isEqualTo(conf);
    assertThat(Reconfiguration.kept(conf, live, "KeepPartInfo")).containsExactly(liveDebug, confNew, liveMade);
    assertThat(Reconfiguration.kept(conf, live, "keeppartstate"))
        .containsExactly(confDebug.toBuilder().setState("DRAIN").build(), confNew);
  }
}
