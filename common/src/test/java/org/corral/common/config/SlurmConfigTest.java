package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.corral.common.SlurmDuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlurmConfigTest {
  private static final Path ETC = Path.of("/etc/slurm/slurm.conf");

  private static SlurmConfig parse(String text) throws ConfigException {
    return SlurmConfig.parse(text, ETC);
  }

  @Test
  void readsTheReferenceClusterShape() throws Exception {
    String text;
    try (InputStream in = getClass().getResourceAsStream("/slurmconf/reference-slurm.conf")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    SlurmConfig c = parse(text);
    assertThat(c.warnings()).containsExactly("slurm.conf: read but not implemented by Corral, without effect: "
        + "MailProg, MaxJobCount, ProctrackType, SlurmctldDebug, SlurmdDebug, SlurmdParameters");
    assertThat(c.clusterName()).isEqualTo("reference");
    assertThat(c.controllerHost()).isEqualTo("vm");
    assertThat(c.controllerAddr()).isEqualTo("vm");
    assertThat(c.slurmUser()).isEqualTo("slurm");
    assertThat(c.slurmdSpoolDir()).isEqualTo("/var/spool/slurmd/%n");
    assertThat(SlurmConfig.expandNodeTemplate(c.slurmdPidFile(), "n2", "vm")).isEqualTo("/run/slurmd-n2.pid");
    assertThat(c.slurmdLogFile()).contains("/var/log/slurm/slurmd-%n.log");
    assertThat(c.slurmctldPidFile()).isEqualTo("/run/slurmctld.pid");
    assertThat(c.defMemPerCpu()).isEqualTo(OptionalLong.of(100));
    assertThat(c.defMemPerNode()).isEmpty();
    assertThat(c.minJobAge()).isEqualTo(30);
    assertThat(c.returnToService()).isEqualTo(2);
    assertThat(c.slurmctldPort()).isEqualTo(6817);
    assertThat(c.nodes()).extracting(NodeConfig::name).containsExactly("n1", "n2", "n3", "n4");
    NodeConfig n3 = c.node("n3").orElseThrow();
    assertThat(n3).isEqualTo(new NodeConfig("n3", "vm", "vm", 17103, 8, 1, 8, 1, 1, 4000, 0, 1, List.of(), "",
        "UNKNOWN", ""));
    PartitionConfig debug = c.defaultPartition().orElseThrow();
    assertThat(debug.name()).isEqualTo("debug");
    assertThat(debug.nodeNames()).containsExactly("n1", "n2", "n3", "n4");
    assertThat(debug.maxTimeMin()).isEqualTo(SlurmDuration.INFINITE);
    assertThat(debug.defaultTimeMin()).isEqualTo(PartitionConfig.NONE);
    assertThat(debug.effectiveDefaultTimeMin()).isEqualTo(SlurmDuration.INFINITE);
    // The rest are Slurm's defaults, as scontrol show partition prints them for this file.
    assertThat(debug.state()).isEqualTo("UP");
    assertThat(debug.minNodes()).isZero();
    assertThat(debug.maxNodes()).isEqualTo(SlurmDuration.INFINITE);
    assertThat(debug.maxCpusPerNode()).isEqualTo(SlurmDuration.INFINITE);
    assertThat(debug.allowGroups()).isEqualTo("ALL");
    assertThat(debug.allowAccounts()).isEqualTo("ALL");
    assertThat(debug.allowQos()).isEqualTo("ALL");
    assertThat(debug.denyAccounts()).isEmpty();
    assertThat(debug.priorityTier()).isEqualTo(1);
    assertThat(debug.priorityJobFactor()).isEqualTo(1);
    assertThat(debug.oversubscribe()).isEqualTo("NO");
    assertThat(debug.preemptMode()).isEqualTo("OFF");
    assertThat(debug.graceTime()).isZero();
    assertThat(debug.hidden() || debug.rootOnly() || debug.exclusiveUser()).isFalse();
  }

  @Test
  void defaultsWhenKeysAreAbsent() throws Exception {
    SlurmConfig c = parse("SlurmctldHost=ctl(10.0.0.1)\nNodeName=a\n");
    assertThat(c.controllerHost()).isEqualTo("ctl");
    assertThat(c.controllerAddr()).isEqualTo("10.0.0.1");
    assertThat(c.slurmctldPort()).isEqualTo(6817);
    assertThat(c.slurmdPort()).isEqualTo(6818);
    assertThat(c.slurmUser()).isEqualTo("root");
    assertThat(c.stateSaveLocation()).isEqualTo(Path.of("/var/spool/slurmctld"));
    assertThat(c.slurmdSpoolDir()).isEqualTo("/var/spool/slurmd");
    assertThat(c.slurmctldPidFile()).isEqualTo("/var/run/slurmctld.pid");
    assertThat(c.slurmdPidFile()).isEqualTo("/run/slurmd.pid");
    assertThat(c.slurmctldLogFile()).isEmpty();
    assertThat(c.slurmdTimeout()).isEqualTo(300);
    assertThat(c.killWait()).isEqualTo(30);
    assertThat(c.minJobAge()).isEqualTo(300);
    assertThat(c.firstJobId()).isEqualTo(1);
    assertThat(c.maxJobId()).isEqualTo(0x03ff0000L);
    assertThat(c.jobRequeue()).isTrue();
    assertThat(c.returnToService()).isZero();
    assertThat(c.authType()).isEqualTo("auth/munge");
    assertThat(c.clusterName()).isEmpty();
    assertThat(c.partitions()).isEmpty();
    assertThat(c.defaultPartition()).isEmpty();
    NodeConfig a = c.node("a").orElseThrow();
    assertThat(a).isEqualTo(new NodeConfig("a", "a", "a", 6818, 1, 1, 1, 1, 1, 1, 0, 1, List.of(), "", "UNKNOWN", ""));
  }

  @Test
  void keysAreCaseInsensitiveAndEntriesKeepSpellingAndOrder() throws Exception {
    SlurmConfig c = parse("clustername=alpha\nSLURMDPORT=7000 slurmctldport=7001-7002\nJobRequeue=0\n"
        + "ControlMachine=old\nControlAddr=10.1.1.1\n");
    assertThat(c.get("ClusterName")).contains("alpha");
    assertThat(c.clusterName()).isEqualTo("alpha");
    assertThat(c.slurmdPort()).isEqualTo(7000);
    assertThat(c.slurmctldPort()).isEqualTo(7001);
    assertThat(c.jobRequeue()).isFalse();
    assertThat(c.controllerHost()).isEqualTo("old");
    assertThat(c.controllerAddr()).isEqualTo("10.1.1.1");
    assertThat(c.entries()).containsExactly(Map.entry("clustername", "alpha"), Map.entry("SLURMDPORT", "7000"),
        Map.entry("slurmctldport", "7001-7002"), Map.entry("JobRequeue", "0"), Map.entry("ControlMachine", "old"),
        Map.entry("ControlAddr", "10.1.1.1"));
  }

  @Test
  void firstSlurmctldHostIsThePrimary() throws Exception {
    SlurmConfig c = parse("SlurmctldHost=primary\nSlurmctldHost=backup(10.0.0.2)\n");
    assertThat(c.controllerHost()).isEqualTo("primary");
    assertThat(c.controllerAddr()).isEqualTo("primary");
    assertThat(c.slurmctldHosts()).containsExactly("primary", "backup(10.0.0.2)");
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void commentsEscapesContinuationAndQuotes() throws Exception {
    SlurmConfig c = parse("""
        # a comment line
        ClusterName=blue   # trailing comment
        MailProg=/usr/bin/mail\\#x
        NodeName=n[1-2] CPUs=4 \\
            RealMemory=2000 Reason="under repair # not a comment" State=DRAIN
        SlurmctldHost = ctl
        """);
    assertThat(c.clusterName()).isEqualTo("blue");
    assertThat(c.get("mailprog")).contains("/usr/bin/mail#x");
    assertThat(c.controllerHost()).isEqualTo("ctl");
    NodeConfig n2 = c.node("n2").orElseThrow();
    assertThat(n2.cpus()).isEqualTo(4);
    assertThat(n2.realMemoryMb()).isEqualTo(2000);
    assertThat(n2.state()).isEqualTo("DRAIN");
    assertThat(n2.reason()).isEqualTo("under repair # not a comment");
  }

  @Test
  void nodeDefaultsHostlistPairingAndPortRanges() throws Exception {
    SlurmConfig c = parse("""
        SlurmctldHost=ctl
        SlurmdPort=7777
        NodeName=DEFAULT Sockets=2 CoresPerSocket=4 ThreadsPerCore=2 RealMemory=64G Feature=intel,avx2 Gres=gpu:2
        NodeName=c[1-3] NodeHostname=h[1-3] NodeAddr=10.0.0.[1-3] Port=[9001-9003] Weight=5
        NodeName=DEFAULT RealMemory=1000 Features=
        NodeName=d1 CPUs=6 TmpDisk=1G
        NodeName=e1 Boards=2 Sockets=2 CoresPerSocket=3 ThreadsPerCore=1
        """);
    assertThat(c.nodes()).extracting(NodeConfig::name).containsExactly("c1", "c2", "c3", "d1", "e1");
    assertThat(c.node("c2").orElseThrow()).isEqualTo(new NodeConfig("c2", "h2", "10.0.0.2", 9002, 16, 1, 2, 4, 2,
        65536, 0, 5, List.of("intel", "avx2"), "gpu:2", "UNKNOWN", ""));
    NodeConfig d1 = c.node("d1").orElseThrow();
    // Sockets from the DEFAULT line stand; CPUs given alone stands; the later DEFAULT cleared Features.
    assertThat(d1.cpus()).isEqualTo(6);
    assertThat(d1.sockets()).isEqualTo(2);
    assertThat(d1.realMemoryMb()).isEqualTo(1000);
    assertThat(d1.tmpDiskMb()).isEqualTo(1024);
    assertThat(d1.features()).isEmpty();
    assertThat(d1.port()).isEqualTo(7777);
    NodeConfig e1 = c.node("e1").orElseThrow();
    assertThat(e1.cpus()).isEqualTo(12);
    assertThat(e1.sockets()).isEqualTo(4);
    assertThat(e1.boards()).isEqualTo(2);
  }

  @Test
  void cpusAloneInferSockets() throws Exception {
    NodeConfig n = parse("NodeName=x CPUs=8 ThreadsPerCore=2").node("x").orElseThrow();
    assertThat(n.cpus()).isEqualTo(8);
    assertThat(n.sockets()).isEqualTo(4);
  }

  @Test
  void partitionsWithDefaultsNodeSetsAndLimits() throws Exception {
    SlurmConfig c = parse("""
        SlurmctldHost=ctl
        PreemptMode=REQUEUE
        NodeName=n[1-4] Feature=cpu
        NodeName=g[1-2] Feature=gpu
        NodeSet=gpus Feature=gpu
        PartitionName=DEFAULT MaxTime=1-0 State=UP AllowAccounts=a,b
        PartitionName=cpu Nodes=n[3-4],n1 Default=YES DefaultTime=30 MaxNodes=2 DefMemPerCPU=1G MaxMemPerNode=UNLIMITED
        PartitionName=gpu Nodes=gpus MaxTime=UNLIMITED OverSubscribe=FORCE:4 PriorityTier=10 Hidden=YES GraceTime=60 \
          PreemptMode=SUSPEND,GANG DenyAccounts=bad AllowGroups=wheel MaxCPUsPerNode=16 ExclusiveUser=YES RootOnly=yes
        PartitionName=all Nodes=ALL State=DRAIN MinNodes=1 AllowQos=normal PriorityJobFactor=3 MaxMemPerCPU=2000 \
          TRESBillingWeights="CPU=1.0,Mem=0.25G,GRES/gpu=2.0"
        """);
    assertThat(c.partitions()).extracting(PartitionConfig::name).containsExactly("cpu", "gpu", "all");
    PartitionConfig cpu = c.partition("cpu").orElseThrow();
    assertThat(cpu.nodesExpr()).isEqualTo("n[3-4],n1");
    assertThat(cpu.nodeNames()).containsExactly("n1", "n3", "n4");
    assertThat(cpu.isDefault()).isTrue();
    assertThat(cpu.maxTimeMin()).isEqualTo(1440);
    assertThat(cpu.defaultTimeMin()).isEqualTo(30);
    assertThat(cpu.maxNodes()).isEqualTo(2);
    assertThat(cpu.defMemPerCpuMb()).isEqualTo(OptionalLong.of(1024));
    assertThat(cpu.maxMemPerNodeMb()).isEmpty();
    assertThat(cpu.allowAccounts()).isEqualTo("a,b");
    assertThat(cpu.preemptMode()).isEqualTo("REQUEUE");
    PartitionConfig gpu = c.partition("gpu").orElseThrow();
    assertThat(gpu.nodeNames()).containsExactly("g1", "g2");
    assertThat(gpu.maxTimeMin()).isEqualTo(SlurmDuration.INFINITE);
    assertThat(gpu.oversubscribe()).isEqualTo("FORCE:4");
    assertThat(gpu.priorityTier()).isEqualTo(10);
    assertThat(gpu.hidden()).isTrue();
    assertThat(gpu.rootOnly()).isTrue();
    assertThat(gpu.exclusiveUser()).isTrue();
    assertThat(gpu.graceTime()).isEqualTo(60);
    assertThat(gpu.preemptMode()).isEqualTo("SUSPEND,GANG");
    assertThat(gpu.denyAccounts()).isEqualTo("bad");
    assertThat(gpu.allowGroups()).isEqualTo("wheel");
    assertThat(gpu.maxCpusPerNode()).isEqualTo(16);
    PartitionConfig all = c.partition("all").orElseThrow();
    assertThat(all.nodeNames()).containsExactly("n1", "n2", "n3", "n4", "g1", "g2");
    assertThat(all.state()).isEqualTo("DRAIN");
    assertThat(all.minNodes()).isEqualTo(1);
    assertThat(all.allowQos()).isEqualTo("normal");
    assertThat(all.priorityJobFactor()).isEqualTo(3);
    assertThat(all.maxMemPerCpuMb()).isEqualTo(OptionalLong.of(2000));
    assertThat(all.billingWeights().text()).isEqualTo("CPU=1.0,Mem=0.25G,GRES/gpu=2.0");
    assertThat(all.billingWeights().perUnit()).containsOnlyKeys("cpu", "mem", "gres/gpu");
    assertThat(cpu.billingWeights().isEmpty()).isTrue();
    assertThat(c.defaultPartition().map(PartitionConfig::name)).contains("cpu");
  }

  @Test
  void downNodesSetStateAndReason() throws Exception {
    SlurmConfig c = parse("NodeName=n[1-3]\nDownNodes=n[2-3] Reason=\"bad disk\" State=DRAIN\n");
    assertThat(c.node("n1").orElseThrow().state()).isEqualTo("UNKNOWN");
    assertThat(c.node("n3").orElseThrow().state()).isEqualTo("DRAIN");
    assertThat(c.node("n3").orElseThrow().reason()).isEqualTo("bad disk");
    assertThat(c.nodes().get(1).state()).isEqualTo("DRAIN");
  }

  @Test
  void unknownKeysWarnButLoad() throws Exception {
    SlurmConfig c = parse("ClusterName=x\nSlurmctldHost=c\n\n\n\n\nFooBar=1\nNodeName=n1 Colour=red\nClusterName=y\n");
    assertThat(c.warnings()).containsExactly("slurm.conf line 7: unknown key FooBar",
        "slurm.conf line 8: unknown key Colour for NodeName",
        "slurm.conf line 9: ClusterName specified more than once, latest value used");
    assertThat(c.clusterName()).isEqualTo("y");
    assertThat(c.get("FooBar")).contains("1");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "NodeName=n1 CPUs=abc|2|CPUs|/etc/slurm/slurm.conf line 2: invalid value for CPUs: 'abc'",
      "SlurmdTimeout=x|2|SlurmdTimeout|/etc/slurm/slurm.conf line 2: invalid value for SlurmdTimeout: 'x'",
      "NodeName=n1\\nPartitionName=p Nodes=n1 MaxTime=1:2:3:4|3|MaxTime|"
          + "/etc/slurm/slurm.conf line 3: invalid value for MaxTime: '1:2:3:4'",
      "NodeName=n[3-1]|2|NodeName|/etc/slurm/slurm.conf line 2: invalid value for NodeName: 'n[3-1]'",
      "NodeName=n1 RealMemory=lots|2|RealMemory|/etc/slurm/slurm.conf line 2: invalid value for RealMemory: 'lots'",
      "NodeName=n1 State=BUSY|2|State|/etc/slurm/slurm.conf line 2: invalid value for State: 'BUSY'",
      "NodeName=n[1-2] Port=1-5|2|Port|/etc/slurm/slurm.conf line 2: Port count does not match NodeName count (2)",
      "NodeName=n1 Port=70000|2|Port|/etc/slurm/slurm.conf line 2: invalid value for Port: '70000'",
      "NodeName=n1\\nNodeName=n1|3|NodeName|/etc/slurm/slurm.conf line 3: duplicate node name n1",
      "PartitionName=p Nodes=zz|2|Nodes|/etc/slurm/slurm.conf line 2: invalid value for Nodes: 'zz' (unknown node zz)",
      "PartitionName=p Default=maybe|2|Default|/etc/slurm/slurm.conf line 2: invalid value for Default: 'maybe'",
      "PartitionName=p OverSubscribe=SOMETIMES|2|OverSubscribe|"
          + "/etc/slurm/slurm.conf line 2: invalid value for OverSubscribe: 'SOMETIMES'",
      "NodeName=n1\\nPartitionName=p Nodes=n1 TRESBillingWeights=CPU=1,Cores=2|3|TRESBillingWeights|"
          + "/etc/slurm/slurm.conf line 3: invalid value for TRESBillingWeights: 'CPU=1,Cores=2'",
      "ReturnToService=3|2|ReturnToService|/etc/slurm/slurm.conf line 2: invalid value for ReturnToService: '3'",
      "JobRequeue=perhaps|2|JobRequeue|/etc/slurm/slurm.conf line 2: invalid value for JobRequeue: 'perhaps'",
      "SlurmctldPort=0|2|SlurmctldPort|/etc/slurm/slurm.conf line 2: invalid value for SlurmctldPort: '0'",
      "DefMemPerCPU=1.5G|2|DefMemPerCPU|/etc/slurm/slurm.conf line 2: invalid value for DefMemPerCPU: '1.5G'",
      "SlurmctldHost=ctl(|2|SlurmctldHost|/etc/slurm/slurm.conf line 2: invalid value for SlurmctldHost: 'ctl('",
      "ClusterName|2|ClusterName|/etc/slurm/slurm.conf line 2: expected key=value, got 'ClusterName'",
      "Reason=\"open|2|Reason|/etc/slurm/slurm.conf line 2: unterminated quote in value of Reason"})
  void badValuesNameFileLineAndKey(String body, int line, String key, String message) {
    String text = "SlurmctldHost=c\n" + body.replace("\\n", "\n") + "\n";
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.getMessage()).isEqualTo(message);
          assertThat(e.file()).isEqualTo(ETC);
          assertThat(e.line()).isEqualTo(line);
          assertThat(e.key()).isEqualTo(key == null || key.isEmpty() ? null : key);
        });
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "SelectType=select/nonexistent|SelectType|invalid value for SelectType: 'select/nonexistent' "
          + "(Can't find plugin for select/nonexistent)",
      "TaskPlugin=task/affinity,task/bogus|TaskPlugin|invalid value for TaskPlugin: 'task/affinity,task/bogus' "
          + "(Can't find plugin for task/bogus)",
      "AccountingStorageEnforce=garbage|AccountingStorageEnforce|invalid value for AccountingStorageEnforce: "
          + "'garbage' (unknown garbage, not one of associations, limits, qos, safe, wckeys, nojobs, nosteps)",
      "MaxArraySize=lots|MaxArraySize|invalid value for MaxArraySize: 'lots'",
      "MessageTimeout=-5|MessageTimeout|invalid value for MessageTimeout: '-5' (less than zero)",
      "DisableRootJobs=perhaps|DisableRootJobs|invalid value for DisableRootJobs: 'perhaps'",
      "SuspendTime=soon|SuspendTime|invalid value for SuspendTime: 'soon'"})
  void theDaemonsRefuseABadValueOfAnyKeyWithFileLineAndReason(String body, String key, String message,
      @TempDir Path dir) throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "SlurmctldHost=c\nClusterName=x\n" + body + "\n");
    assertThatThrownBy(() -> SlurmConfig.load(conf)).isInstanceOfSatisfying(ConfigException.class, e -> {
      assertThat(e.getMessage()).isEqualTo(conf + " line 3: " + message);
      assertThat(e.key()).isEqualTo(key);
    });
    // The commands read the same file: the key reads as its default and they go on (Slurm's would stop).
    SlurmConfig shared = SlurmConfig.loadShared(conf);
    assertThat(shared.clusterName()).isEqualTo("x");
    ConfKey<?> k = SlurmConfKeys.find(key);
    assertThat(shared.isSet(k)).isFalse();
    assertThat(shared.shown(k)).isEqualTo(k.unsetText());
  }

  @Test
  void showConfigListsBothControllersAndTheAuthenticationInUse() throws Exception {
    Map<String, String> lines = new java.util.LinkedHashMap<>();
    ConfigListing.of(parse("SlurmctldHost=c\nSlurmctldHost=b(10.0.0.2)\nAuthType=auth/none\nNodeName=n1\n"), Map.of())
        .forEach(e -> lines.put(e.getKey(), e.getValue()));
    assertThat(lines).containsEntry("SlurmctldHost[0]", "c").containsEntry("SlurmctldHost[1]", "b(10.0.0.2)")
        .containsEntry("AuthType", "auth/slurm").containsEntry("MaxNodeCount", "1")
        .containsEntry("SchedulerTimeSlice", "30 sec").containsEntry("DefMemPerNode", "UNLIMITED");
    assertThat(lines).doesNotContainKey("SlurmctldHost");
    assertThat(ConfigListing.of(parse("SlurmctldHost=c\n"), Map.of()))
        .contains(Map.entry("AuthType", "auth/munge"));
  }

  @Test
  void oneWarningListsTheKeysReadButWithoutEffect() throws Exception {
    SlurmConfig c = parse("SlurmctldHost=c\nDependencyParameters=kill_invalid_depend\nEioTimeout=100\n"
        + "SelectType=select/cons_tres\nMailProg=/bin/mail\nKillWait=10\nOverTimeLimit=0\nDisableRootJobs=YES\n");
    // cons_tres is what Corral does, /bin/mail and 0 are the defaults, KillWait and DisableRootJobs are honoured.
    assertThat(c.warnings()).containsExactly(
        "slurm.conf: read but not implemented by Corral, without effect: DependencyParameters, EioTimeout");
    assertThat(c.value(SlurmConfKeys.KILL_WAIT)).isEqualTo(10L);
    assertThat(c.shown(SlurmConfKeys.KILL_WAIT)).isEqualTo("10 sec");
    assertThat(c.shown(SlurmConfKeys.SCHEDULER_TIME_SLICE)).isEqualTo("30 sec");
    assertThat(c.shown(SlurmConfKeys.ACCT_GATHER_NODE_FREQ)).isEqualTo("0 sec");
  }

  @Test
  void includeIsRelativeToTheIncludingFileAndGlobs(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("conf.d/parts"));
    Files.writeString(dir.resolve("slurm.conf"), "ClusterName=inc\nInclude conf.d/nodes.conf\nInclude \"conf.d/parts/*.conf\"\n");
    Files.writeString(dir.resolve("conf.d/nodes.conf"), "SlurmctldHost=ctl\nNodeName=n[1-2]\n");
    Files.writeString(dir.resolve("conf.d/parts/b.conf"), "PartitionName=b Nodes=n2\n");
    Files.writeString(dir.resolve("conf.d/parts/a.conf"), "PartitionName=a Nodes=n1\nBogus=1\n");
    Files.writeString(dir.resolve("conf.d/parts/skip.txt"), "PartitionName=z Nodes=n1\n");
    SlurmConfig c = SlurmConfig.load(dir.resolve("slurm.conf"));
    assertThat(c.path()).isEqualTo(dir.resolve("slurm.conf"));
    assertThat(c.clusterName()).isEqualTo("inc");
    assertThat(c.nodes()).hasSize(2);
    assertThat(c.partitions()).extracting(PartitionConfig::name).containsExactly("a", "b");
    assertThat(c.warnings()).containsExactly("a.conf line 2: unknown key Bogus");
  }

  @Test
  void includeErrorsNameTheIncludedFile(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("slurm.conf"), "Include extra.conf\n");
    Files.writeString(dir.resolve("extra.conf"), "\nKillWait=soon\n");
    assertThatThrownBy(() -> SlurmConfig.load(dir.resolve("slurm.conf")))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.file()).isEqualTo(dir.resolve("extra.conf"));
          assertThat(e.line()).isEqualTo(2);
          assertThat(e.key()).isEqualTo("KillWait");
        });
    assertThatThrownBy(() -> SlurmConfig.parse("Include missing.conf\n", dir.resolve("slurm.conf")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("missing.conf not found");
  }

  @Test
  void includeCyclesAreStopped(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("slurm.conf"), "Include slurm.conf\n");
    assertThatThrownBy(() -> SlurmConfig.load(dir.resolve("slurm.conf")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("nested more than");
  }

  @Test
  void missingFileIsAConfigException(@TempDir Path dir) {
    assertThatThrownBy(() -> SlurmConfig.load(dir.resolve("nope.conf")))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).isZero());
  }

  @Test
  void commandsBuildNodesAndPartitionsOnlyWhenAsked(@TempDir Path dir) throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=c\nSlurmctldPort=7001\nNodeName=n[1-2] CPUs=abc\n"
        + "PartitionName=p Nodes=ALL\n");
    assertThatThrownBy(() -> SlurmConfig.load(conf)).isInstanceOf(ConfigException.class)
        .hasMessage(conf + " line 3: invalid value for CPUs: 'abc'");
    SlurmConfig shared = SlurmConfig.loadShared(conf);
    assertThat(shared.clusterName()).isEqualTo("c");
    assertThat(shared.slurmctldPort()).isEqualTo(7001);
    assertThatThrownBy(shared::nodes).isInstanceOf(IllegalStateException.class)
        .hasMessage(conf + " line 3: invalid value for CPUs: 'abc'");

    Files.writeString(conf, "ClusterName=c\nNodeName=n[1-2] CPUs=4\nDownNodes=n2 Reason=gone\n"
        + "PartitionName=p Nodes=ALL Default=YES\n");
    SlurmConfig good = SlurmConfig.loadShared(conf);
    assertThat(good.nodes()).extracting(NodeConfig::name).containsExactly("n1", "n2");
    assertThat(good.node("n2").orElseThrow().state()).isEqualTo("DOWN");
    assertThat(good.defaultPartition().orElseThrow().nodeNames()).containsExactly("n1", "n2");
  }

  @Test
  void defaultPathHonoursSlurmConf() {
    assertThat(SlurmConfig.defaultPath(Map.of())).isEqualTo(Path.of("/etc/slurm/slurm.conf"));
    assertThat(SlurmConfig.defaultPath(Map.of("SLURM_CONF", "/opt/s.conf"))).isEqualTo(Path.of("/opt/s.conf"));
  }

  @Test
  void nodeTemplates() {
    assertThat(SlurmConfig.expandNodeTemplate("/var/spool/%n/%h/100%%/%x", "n1", "host")).isEqualTo("/var/spool/n1/host/100%/%x");
  }
}
