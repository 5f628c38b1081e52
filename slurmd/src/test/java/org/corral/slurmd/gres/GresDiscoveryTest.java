package org.corral.slurmd.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What slurmd finds: nvidia-smi's output (real-h100-* recorded on an H100 node with
 * nvidia-smi/record.sh; the multi-GPU ones written from NVIDIA's documented formats), gres.conf merged with slurm.conf's Gres=, slurmd -G's
 * lines as Slurm 22.05 printed them for the same gres.conf, the variables a job sees, and the
 * device rules ConstrainDevices writes.
 */
class GresDiscoveryTest {
  @TempDir
  Path dir;

  private static String fixture(String name) throws IOException {
    try (InputStream in = GresDiscoveryTest.class.getResourceAsStream("/nvidia-smi/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void h100NodeWithNvlinkTopology() throws IOException {
    List<GresSlot> slots = NvidiaSmi.parse(fixture("h100-query.csv"), fixture("h100-topo.txt"));
    assertThat(slots).hasSize(4);
    assertThat(slots).allSatisfy(s -> {
      assertThat(s.getName()).isEqualTo("gpu");
      assertThat(s.getType()).isEqualTo("nvidia_h100_80gb_hbm3");
      assertThat(s.getCount()).isEqualTo(1);
    });
    assertThat(slots).extracting(s -> s.getFiles(0))
        .containsExactly("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2", "/dev/nvidia3");
    assertThat(slots).extracting(GresSlot::getCores)
        .containsExactly("0-55,112-167", "0-55,112-167", "56-111,168-223", "56-111,168-223");
    assertThat(slots.get(0).getLinks()).isEqualTo("-1,18,18,18");
    assertThat(slots.get(2).getLinks()).isEqualTo("18,18,-1,18");
  }

  @Test
  void realH100RecordingIsDetectedAsOneGpuWithItsCpuAffinity() {
    // recorded from driver 580.159.04: the matrix header is underlined (ESC[4m) even into a file
    NvidiaSmi smi = new NvidiaSmi(args -> {
      String name = args.isEmpty() ? "smi.txt" : switch (args.get(0)) {
        case "topo" -> "topo.txt";
        case "-L" -> "L.txt";
        default -> "query.csv";
      };
      return fixture("real-h100-" + name);
    }, () -> {
      try {
        return fixture("real-h100-mig-minors.txt");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    List<GresSlot> slots = smi.detect();
    assertThat(slots).hasSize(1);
    assertThat(slots.get(0).getType()).isEqualTo("nvidia_h100_80gb_hbm3");
    assertThat(slots.get(0).getFilesList()).containsExactly("/dev/nvidia0");
    assertThat(slots.get(0).getCores()).isEqualTo("0-15");
    assertThat(slots.get(0).getLinks()).isEqualTo("-1");
  }

  @Test
  void a100PairWithoutNvlinkAndNoNvidiaSmiAtAll() throws IOException {
    List<GresSlot> slots = NvidiaSmi.parse(fixture("a100-query.csv"), fixture("a100-topo.txt"));
    assertThat(slots).extracting(GresSlot::getType).containsOnly("nvidia_a100-sxm4-40gb");
    assertThat(slots).extracting(GresSlot::getLinks).containsExactly("-1,0", "0,-1");
    assertThat(slots).extracting(GresSlot::getCores).containsOnly("0-15");
    assertThat(new NvidiaSmi(args -> null).detect()).isEmpty();
    assertThat(new NvidiaSmi(args -> args.get(0).equals("topo") ? null : fixture("a100-query.csv")).detect())
        .extracting(GresSlot::getCores).containsOnly("");
  }

  @Test
  void autoDetectNvmlTakesTheGpusFromNvidiaSmiAndGresConfTheRest() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, "AutoDetect=nvml\nName=gpu File=/dev/nvidia[0-7]\nName=nic Count=2\n");
    NvidiaSmi smi = new NvidiaSmi(args -> args.get(0).equals("topo") ? fixture("h100-topo.txt")
        : fixture("h100-query.csv"));
    GresInventory inv = GresInventory.load(conf, "n1", "gpu:4,nic:2,bw:100", smi);
    assertThat(inv.count("gpu")).isEqualTo(4);
    assertThat(inv.count("nic")).isEqualTo(2);
    assertThat(inv.count("bw")).as("from Gres= alone").isEqualTo(100);
    Files.writeString(conf, "AutoDetect=nvidia\n");
    assertThat(GresInventory.load(conf, "n1", "gpu:4", smi).count("gpu")).as("Slurm 24's name").isEqualTo(4);
  }

  @Test
  void slurmdDashGPrintsWhatSlurmPrintedForTheSameGresConf() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, """
        AutoDetect=off
        NodeName=g1 Name=gpu File=/dev/corral-ref-gpu[0-1] Cores=0-3
        NodeName=g1 Name=nic Count=1
        NodeName=g2 Name=gpu Type=tesla File=/dev/corral-ref-gpu[2-3]
        """);
    NvidiaSmi none = new NvidiaSmi(args -> null);
    // Slurm 22.05.8's slurmd -G on stderr, each line after "slurmd: " (golden/gres/README.md in cli's tests)
    assertThat(GresInventory.load(conf, "g1", "gpu:2,nic:1", none).describe(8)).containsExactly(
        "Gres Name=gpu Type=(null) Count=2 Index=0 ID=7696487 File=/dev/corral-ref-gpu[0-1] Cores=0-3 CoreCnt=8 (null)",
        "Gres Name=nic Type=(null) Count=1 ID=6515054 (null)");
    assertThat(GresInventory.load(conf, "g2", "gpu:tesla:2", none).describe(8)).containsExactly(
        "Gres Name=gpu Type=tesla Count=2 Index=0 ID=7696487 File=/dev/corral-ref-gpu[2-3] (null)");
  }

  @Test
  void closeCoresAreThoseOfTheGivenGpusSlots() {
    GresInventory inv = new GresInventory(List.of(
        GresSlot.newBuilder().setName("gpu").setCount(2).setCores("0-3").build(),
        GresSlot.newBuilder().setName("gpu").setCount(2).setCores("4-7").build(),
        GresSlot.newBuilder().setName("nic").setCount(1).setCores("8").build()));
    assertThat(inv.closeCores(List.of(GresAlloc.newBuilder().setName("gpu").addIndices(2).build())))
        .isEqualTo(org.corral.protocol.CpuList.parse("4-7"));
    assertThat(inv.closeCores(List.of(GresAlloc.newBuilder().setName("gpu").addIndices(1).addIndices(3).build())))
        .isEqualTo(org.corral.protocol.CpuList.parse("0-7"));
    assertThat(inv.closeCores(List.of()).isEmpty()).isTrue();
  }

  @Test
  void shardsAreSpreadOverTheirGpusFilesWithTheGpusCores() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, "Name=gpu File=/dev/nvidia[0-1] Cores=0-3\nName=shard Count=5 File=/dev/nvidia[0-1]\n");
    GresInventory inv = GresInventory.load(conf, "n1", "gpu:2,shard:5", new NvidiaSmi(args -> null));
    assertThat(inv.slots()).filteredOn(s -> s.getName().equals("shard"))
        .extracting(GresSlot::getCount, s -> s.getFiles(0), GresSlot::getCores)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(3L, "/dev/nvidia0", "0-3"),
            org.assertj.core.groups.Tuple.tuple(2L, "/dev/nvidia1", "0-3"));
    // a job of two shards on GPU 1 sees GPU 1 (the reference's env_shard_j13.out)
    JobInfo job = JobInfo.newBuilder().addAllocation(NodeAllocation.newBuilder().setNode("n1")
        .addGres(GresAlloc.newBuilder().setName("shard").addIndices(3).addIndices(4).addGpuIndices(1))).build();
    assertThat(GresEnvironment.job(job, "n1")).containsEntry("CUDA_VISIBLE_DEVICES", "1")
        .containsEntry("SLURM_JOB_GPUS", "1").containsEntry("SLURM_GPUS_ON_NODE", "1")
        .containsEntry("SLURM_SHARDS_ON_NODE", "2");
    assertThat(inv.files("shard", List.of(3, 4))).containsExactly("/dev/nvidia1");
  }

  @Test
  void jobAndStepVariablesAsSlurmSetsThem() {
    JobInfo job = JobInfo.newBuilder().setTresPerJob("gres:gpu:2").addAllocation(NodeAllocation.newBuilder()
        .setNode("g2").addGres(GresAlloc.newBuilder().setName("gpu").setType("tesla").addIndices(0).addIndices(1)))
        .build();
    // env_j4.out of the reference recordings, less the variables other code sets
    assertThat(GresEnvironment.job(job, "g2")).isEqualTo(Map.of("CUDA_VISIBLE_DEVICES", "0,1",
        "GPU_DEVICE_ORDINAL", "0,1", "ROCR_VISIBLE_DEVICES", "0,1", "ZE_AFFINITY_MASK", "0,1",
        "SLURM_GPUS", "2", "SLURM_GPUS_ON_NODE", "2", "SLURM_JOB_GPUS", "0,1"));
    assertThat(GresEnvironment.job(job, "g1")).isEqualTo(Map.of("SLURM_GPUS", "2"));
    List<NodeAllocation> step = List.of(NodeAllocation.newBuilder().setNode("g1")
        .addGres(GresAlloc.newBuilder().setName("gpu").addIndices(1)).build());
    assertThat(GresEnvironment.step(step, "g1")).containsEntry("SLURM_STEP_GPUS", "1")
        .containsEntry("CUDA_VISIBLE_DEVICES", "1").containsEntry("SLURM_GPUS_ON_NODE", "1")
        .doesNotContainKey("SLURM_JOB_GPUS");
  }

  @Test
  void constrainDevicesDeniesTheNodesOtherGresDevices() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "mknod needs root");
    Path gpu0 = dir.resolve("gpu0");
    Path gpu1 = dir.resolve("gpu1");
    for (var d : Map.of(gpu0, "7", gpu1, "8").entrySet()) {
      assertThat(new ProcessBuilder("mknod", d.getKey().toString(), "c", "1", d.getValue()).start().waitFor())
          .isZero();
    }
    GresInventory inv = new GresInventory(List.of(GresSlot.newBuilder().setName("gpu").setCount(2)
        .addFiles(gpu0.toString()).addFiles(gpu1.toString()).build(),
        GresSlot.newBuilder().setName("nic").setCount(1).build()));
    GresAlloc first = GresAlloc.newBuilder().setName("gpu").addIndices(0).build();
    assertThat(DeviceRules.denied(inv, List.of(first))).containsExactly("c 1:8");
    assertThat(DeviceRules.denied(inv, List.of())).containsExactly("c 1:7", "c 1:8");
    assertThat(DeviceRules.denied(inv, List.of(first.toBuilder().addIndices(1).build()))).isEmpty();
  }
}
