package org.corral.cli.gres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.scontrol.ScontrolCommand;
import org.corral.cli.sinfo.SinfoCommand;
import org.corral.cli.squeue.SqueueCommand;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoReply;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/**
 * GRES output against Slurm 22.05's, recorded (golden/gres/, see README there) on a reference
 * cluster of two nodes: g1 Gres=gpu:2,nic:1 (gres.conf File=/dev/corral-ref-gpu[0-1] Cores=0-3,
 * nic Count=1), g2 Gres=gpu:tesla:2 (File=/dev/corral-ref-gpu[2-3]), GresTypes=gpu,nic; jobs 1 and 2
 * --gres=gpu:1 on g1 running, 3 pending (Resources), 4 --gpus=2 on g2. The same state is served to
 * Corral's commands here.
 */
class GresGoldenTest {
  private static final String GPU0 = "/dev/corral-ref-gpu0";

  private static NodeInfo.Builder node(String name) {
    return NodeInfo.newBuilder().setName(name).setHostname("vm").setAddr("vm").setCpus(8).setSockets(8)
        .setCoresPerSocket(1).setThreadsPerCore(1).setRealMemoryMb(4000).setWeight(1)
        .setBaseState(NodeBaseState.NODE_IDLE).addPartitions("gp").addGresTypes("gpu").addGresTypes("nic");
  }

  static final NodeInfo G1 = node("g1").setGres("gpu:2,nic:1").setAllocCpus(2).setAllocMemMb(200).setRunningJobs(2)
      .addGresSlots(GresSlot.newBuilder().setName("gpu").setCount(2).addFiles(GPU0)
          .addFiles("/dev/corral-ref-gpu1").setCores("0-3"))
      .addGresSlots(GresSlot.newBuilder().setName("nic").setCount(1))
      .addGresUsed(GresAlloc.newBuilder().setName("gpu").addIndices(0).addIndices(1)).build();
  static final NodeInfo G2 = node("g2").setGres("gpu:tesla:2").setAllocCpus(1).setAllocMemMb(100).setRunningJobs(1)
      .addGresSlots(GresSlot.newBuilder().setName("gpu").setType("tesla").setCount(2)
          .addFiles("/dev/corral-ref-gpu2").addFiles("/dev/corral-ref-gpu3"))
      .addGresUsed(GresAlloc.newBuilder().setName("gpu").setType("tesla").addIndices(0).addIndices(1)).build();

  private static JobInfo.Builder job(int id, JobState state, String node, int gpu) {
    JobInfo.Builder b = JobInfo.newBuilder().setJobId(id).setName("env.sh").setUserName("root").setPartition("gp")
        .setState(state).setNumNodes(1).setNumCpus(1).setNumTasks(1).setCpusPerTask(1).setMinNodes(1)
        .setTimeLimitMin(-1).setMemPerCpuMb(100).setStateReason(state == JobState.PENDING ? "Resources" : "None")
        .setSubmitTime(1000 + id).setPriority((int) (4294901760L - id));
    if (state == JobState.RUNNING) {
      b.setNodes(node).setBatchHost(node).setStartTime(1100).addAllocation(NodeAllocation.newBuilder().setNode(node)
          .setCpus(1).setMemMb(100).addGres(node.equals("g2")
              ? GresAlloc.newBuilder().setName("gpu").setType("tesla").addIndices(0).addIndices(1)
              : GresAlloc.newBuilder().setName("gpu").addIndices(gpu)));
    }
    return b;
  }

  static final List<JobInfo> JOBS = List.of(
      job(1, JobState.RUNNING, "g1", 0).setTresPerNode("gres:gpu:1").build(),
      job(2, JobState.RUNNING, "g1", 1).setTresPerNode("gres:gpu:1").build(),
      job(3, JobState.PENDING, "", 0).setTresPerNode("gres:gpu:1").build(),
      job(4, JobState.RUNNING, "g2", 0).setTresPerJob("gres:gpu:2").build());

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private String run(String command, String... args) {
    PartitionInfo gp = PartitionInfo.newBuilder().setName("gp").setIsDefault(true).setState("UP")
        .setMaxTimeMin(-1).setMaxNodes(-1).addNodeNames("g1").addNodeNames("g2").setNodes("g[1-2]").build();
    RpcChannel ch = r -> switch (r.getBodyCase()) {
      case NODE_INFO -> Response.newBuilder().setNodeInfo(NodeInfoReply.newBuilder().addNodes(G1).addNodes(G2)
          .addAllNodes(List.of())).build();
      case JOB_INFO -> Response.newBuilder().setJobInfo(JobInfoReply.newBuilder().addAllJobs(
          r.getJobInfo().getJobIdsCount() == 0 ? JOBS
              : JOBS.stream().filter(j -> r.getJobInfo().getJobIdsList().contains(j.getJobId())).toList())).build();
      default -> Response.newBuilder().setPartitionInfo(PartitionInfoReply.newBuilder().addPartitions(gp)).build();
    };
    Cli cli = new Cli(command, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        Map.of("SLURM_CONF", "/nonexistent/slurm.conf"), Clock.fixed(Instant.ofEpochSecond(2000), ZoneOffset.UTC),
        () -> ch);
    switch (command) {
      case "sinfo" -> new SinfoCommand(UserDirectory.none()).run(List.of(args), cli);
      case "squeue" -> new SqueueCommand(UserDirectory.none()).run(List.of(args), cli);
      default -> new ScontrolCommand(UserDirectory.none()).run(List.of(args), cli);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  static String recorded(String name) throws IOException {
    try (InputStream in = GresGoldenTest.class.getResourceAsStream("/golden/gres/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The recorded output's lines that start with one of these (after the indentation). */
  static String lines(String text, String... starts) {
    StringBuilder b = new StringBuilder();
    for (String l : text.split("\n")) {
      for (String s : starts) {
        if (l.strip().startsWith(s)) {
          b.append(l).append('\n');
        }
      }
    }
    return b.toString();
  }

  @Test
  void sinfoGresColumn() throws IOException {
    assertThat(run("sinfo", "-o", "%N %G")).isEqualTo(recorded("sinfo_G.out"));
  }

  @Test
  void sinfoGresColumnWithShardsOfTheGpus() throws IOException {
    // g1 as slurmd reports it with gres.conf Name=shard Count=4 File=/dev/corral-ref-gpu[0-1]:
    // two shards on each GPU's file, the GPU's cores; listed in Gres= order, not gres.conf's
    NodeInfo g1 = G1.toBuilder().setGres("gpu:2,nic:1,shard:4").clearGresSlots()
        .addGresSlots(G1.getGresSlots(0))
        .addGresSlots(GresSlot.newBuilder().setName("shard").setCount(2).addFiles(GPU0).setCores("0-3"))
        .addGresSlots(GresSlot.newBuilder().setName("shard").setCount(2).addFiles("/dev/corral-ref-gpu1").setCores("0-3"))
        .addGresSlots(G1.getGresSlots(1)).build();
    assertThat(org.corral.cli.format.GresText.node(g1) + "\n")
        .isEqualTo(recorded("sinfo_G_shard.out").lines().skip(1).findFirst().orElseThrow().substring(3) + "\n");
  }

  @Test
  void sinfoGresAndGresUsedFields() throws IOException {
    assertThat(run("sinfo", "-N", "-O", "NodeList,Gres:30,GresUsed:40")).isEqualTo(recorded("sinfo_O_gres.out"));
  }

  @Test
  void scontrolShowNodeGres() throws IOException {
    assertThat(lines(run("scontrol", "show", "node", "g1"), "Gres"))
        .isEqualTo(lines(recorded("scontrol_node_g1.out"), "Gres")).isNotEmpty();
  }

  @Test
  void scontrolShowNodeDetailsGresUsed() throws IOException {
    assertThat(lines(run("scontrol", "-d", "show", "node", "g2"), "Gres"))
        .isEqualTo(lines(recorded("scontrol_node_g2_d.out"), "Gres")).contains("GresUsed=");
  }

  @Test
  void scontrolShowJobDetailsPerNodeGres() throws IOException {
    assertThat(lines(run("scontrol", "-d", "show", "job", "1"), "JOB_GRES", "Nodes=", "Tres"))
        .isEqualTo(lines(recorded("scontrol_job_1_d.out"), "JOB_GRES", "Nodes=", "Tres")).contains("IDX:0");
    out.reset();
    assertThat(lines(run("scontrol", "-d", "show", "job", "4"), "JOB_GRES", "Nodes=", "Tres"))
        .isEqualTo(lines(recorded("scontrol_job_4_d.out"), "JOB_GRES", "Nodes=", "Tres")).contains("tesla");
    out.reset(); // options after the words, as Slurm's scontrol takes them (GNU getopt permutes)
    assertThat(lines(run("scontrol", "show", "job", "-d", "1"), "JOB_GRES", "Nodes=", "Tres"))
        .isEqualTo(lines(recorded("scontrol_job_1_d.out"), "JOB_GRES", "Nodes=", "Tres"));
  }

  @Test
  void squeueTresPerNode() throws IOException {
    assertThat(run("squeue", "-o", "%i %t %r %b")).isEqualTo(recorded("squeue_b.out"));
  }
}
