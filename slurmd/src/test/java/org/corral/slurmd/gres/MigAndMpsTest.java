package org.corral.slurmd.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

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
 * MIG instances detected from nvidia-smi (an A100 80GB with GPU 0 in MIG mode: 3g.40gb,
 * 2g.20gb and two 1g.10gb; GPU 1 whole), written from NVIDIA's documented output formats since
 * no GPU was at hand; and the mps variables.
 */
class MigAndMpsTest {
  @TempDir Path dir;

  private static String fixture(String name) throws IOException {
    try (InputStream in = MigAndMpsTest.class.getResourceAsStream("/nvidia-smi/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static NvidiaSmi migNode() {
    return new NvidiaSmi(args -> fixture(args.isEmpty() ? "a100-mig-smi.txt"
        : args.get(0).equals("topo") ? "a100-mig-topo.txt"
        : args.get(0).equals("-L") ? "a100-mig-L.txt" : "a100-mig-query.csv"), () -> {
          try {
            return fixture("a100-mig-minors.txt");
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        });
  }

  @Test
  void migInstancesAreGpusOfTheirOwnWithTheirCapabilityDevices() {
    List<GresSlot> slots = migNode().detect();
    assertThat(slots).extracting(GresSlot::getType).containsExactly("nvidia_a100-sxm4-80gb_3g.40gb",
        "nvidia_a100-sxm4-80gb_2g.20gb", "nvidia_a100-sxm4-80gb_1g.10gb", "nvidia_a100-sxm4-80gb_1g.10gb",
        "nvidia_a100-sxm4-80gb");
    // GPU instance 2 -> gpu0/gi2/access 21 and gi2/ci0 22; instance 9 -> 84, 85 (mig-minors)
    assertThat(slots.get(0).getFilesList())
        .containsExactly("/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap21", "/dev/nvidia-caps/nvidia-cap22");
    assertThat(slots.get(2).getFilesList())
        .containsExactly("/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap84", "/dev/nvidia-caps/nvidia-cap85");
    assertThat(slots.get(2).getUniqueId()).isEqualTo("MIG-7a1e3c5d-2b4f-5a6e-9d8c-0f1e2d3c4b52");
    assertThat(slots.get(2).getLinks()).as("no NVLink between MIG instances").isEmpty();
    assertThat(slots.get(4).getFilesList()).containsExactly("/dev/nvidia1");
    assertThat(slots.get(4).getUniqueId()).isEmpty();
    assertThat(slots.get(4).getLinks()).isEqualTo("12,-1");
    assertThat(slots).extracting(GresSlot::getCores).containsOnly("0-31");
  }

  @Test
  void slurmConfTypesNameTheDetectedGpusTheyArePartOf() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, "AutoDetect=nvml\n");
    GresInventory inv = GresInventory.load(conf, "n1",
        "gpu:a100:1,gpu:3g.40gb:1,gpu:2g.20gb:1,gpu:1g.10gb:2", migNode());
    assertThat(inv.slots()).extracting(GresSlot::getType)
        .containsExactly("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb", "a100");
    assertThat(inv.describe(32).get(2)).isEqualTo("Gres Name=gpu Type=1g.10gb Count=1 Index=2 ID=7696487 "
        + "File=/dev/nvidia0,/dev/nvidia-caps/nvidia-cap[84-85] Cores=0-31 CoreCnt=32 (null)");
  }

  @Test
  void aJobOnMigInstancesSeesThemByUuidAndItsIndicesInSlurmJobGpus() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, "AutoDetect=nvml\n");
    GresEnvironment.register("mig1", GresInventory.load(conf, "mig1", "gpu:1g.10gb:2", migNode()));
    JobInfo job = JobInfo.newBuilder().addAllocation(NodeAllocation.newBuilder().setNode("mig1")
        .addGres(GresAlloc.newBuilder().setName("gpu").setType("1g.10gb").addIndices(2).addIndices(3))).build();
    assertThat(GresEnvironment.job(job, "mig1"))
        .containsEntry("CUDA_VISIBLE_DEVICES",
            "MIG-7a1e3c5d-2b4f-5a6e-9d8c-0f1e2d3c4b52,MIG-7a1e3c5d-2b4f-5a6e-9d8c-0f1e2d3c4b53")
        .containsEntry("SLURM_JOB_GPUS", "2,3").containsEntry("SLURM_GPUS_ON_NODE", "2");
    JobInfo whole = JobInfo.newBuilder().addAllocation(NodeAllocation.newBuilder().setNode("mig1")
        .addGres(GresAlloc.newBuilder().setName("gpu").addIndices(4))).build();
    assertThat(GresEnvironment.job(whole, "mig1")).containsEntry("CUDA_VISIBLE_DEVICES", "4");
  }

  @Test
  void aMigJobKeepsItsGpusFileAndLosesTheOtherInstancesCapabilities() throws Exception {
    assumeThat(System.getProperty("user.name")).isEqualTo("root");
    Map<String, String> minors = Map.of("gpu0", "3", "cap21", "5", "cap22", "7", "cap30", "8", "cap31", "9");
    for (var e : minors.entrySet()) {
      assertThat(new ProcessBuilder("mknod", dir.resolve(e.getKey()).toString(), "c", "1", e.getValue())
          .start().waitFor()).isZero();
    }
    GresInventory inv = new GresInventory(List.of(
        mig("gpu0", "cap21", "cap22"), mig("gpu0", "cap30", "cap31")));
    GresAlloc first = GresAlloc.newBuilder().setName("gpu").addIndices(0).build();
    assertThat(DeviceRules.denied(inv, List.of(first))).containsExactly("c 1:8", "c 1:9");
    assertThat(DeviceRules.denied(inv, List.of())).containsExactly("c 1:3", "c 1:5", "c 1:7", "c 1:8", "c 1:9");
  }

  private GresSlot mig(String... files) {
    GresSlot.Builder b = GresSlot.newBuilder().setName("gpu").setType("1g.10gb").setCount(1);
    for (String f : files) {
      b.addFiles(dir.resolve(f).toString());
    }
    return b.build();
  }

  @Test
  void mpsGivesTheJobsShareOfItsGpuAsThreadPercentage() throws Exception {
    Path conf = dir.resolve("gres.conf");
    Files.writeString(conf, """
        Name=gpu File=/dev/nvidia[0-1]
        Name=mps Count=100 File=/dev/nvidia0
        Name=mps Count=200 File=/dev/nvidia1
        """);
    GresEnvironment.register("mps1", GresInventory.load(conf, "mps1", "gpu:2,mps:300", new NvidiaSmi(a -> null)));
    GresAlloc.Builder units = GresAlloc.newBuilder().setName("mps").addGpuIndices(1);
    for (int i = 100; i < 150; i++) {
      units.addIndices(i);
    }
    JobInfo job = JobInfo.newBuilder().addAllocation(NodeAllocation.newBuilder().setNode("mps1").addGres(units))
        .build();
    assertThat(GresEnvironment.job(job, "mps1")).containsEntry("CUDA_VISIBLE_DEVICES", "1")
        .containsEntry("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "25").containsEntry("SLURM_GPUS_ON_NODE", "1")
        .doesNotContainKey("SLURM_SHARDS_ON_NODE");
  }
}
