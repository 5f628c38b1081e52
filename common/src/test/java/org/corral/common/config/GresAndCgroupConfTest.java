package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GresAndCgroupConfTest {
  private static final Path GRES = Path.of("/etc/slurm/gres.conf");
  private static final Path CGROUP = Path.of("/etc/slurm/cgroup.conf");

  @Test
  void gresLinesExpandFilesAndCounts() throws Exception {
    GresConf g = GresConf.parse("""
        AutoDetect=off
        NodeName=g[1-2] Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15 Links=-1,0,0,0
        NodeName=g[1-2] Name=mps Count=400
        Name=bandwidth Type=lustre Count=4G Flags=CountOnly
        NodeName=g3 AutoDetect=nvml
        NodeName=g3 Name=gpu MultipleFiles=/dev/nvidia[0-1],/dev/nvidiactl
        """, GRES);
    assertThat(g.warnings()).isEmpty();
    GresEntry gpu = g.entries().get(0);
    assertThat(gpu.nodeNames()).containsExactly("g1", "g2");
    assertThat(gpu.name()).isEqualTo("gpu");
    assertThat(gpu.type()).isEqualTo("a100");
    assertThat(gpu.files()).containsExactly("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2", "/dev/nvidia3");
    assertThat(gpu.count()).isEqualTo(4);
    assertThat(gpu.cores()).isEqualTo("0-15");
    assertThat(gpu.links()).isEqualTo("-1,0,0,0");
    assertThat(g.entries().get(1).count()).isEqualTo(400);
    GresEntry bw = g.entries().get(2);
    assertThat(bw.count()).isEqualTo(4L << 30);
    assertThat(bw.flags()).isEqualTo("CountOnly");
    assertThat(bw.appliesTo("anything")).isTrue();
    assertThat(g.forNode("g1")).extracting(GresEntry::name).containsExactly("gpu", "mps", "bandwidth");
    assertThat(g.forNode("g3")).extracting(GresEntry::name).containsExactly("bandwidth", "gpu");
    GresEntry multi = g.forNode("g3").get(1);
    assertThat(multi.multipleFiles()).containsExactly("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl");
    assertThat(multi.count()).isEqualTo(1);
    assertThat(g.autoDetect("g3")).contains("nvml");
    assertThat(g.autoDetect("g1")).contains("off");
  }

  @Test
  void gresErrorsNameLineAndKey() {
    assertThatThrownBy(() -> GresConf.parse("Name=gpu\nName=gpu Count=lots\n", GRES))
        .isInstanceOfSatisfying(ConfigException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("/etc/slurm/gres.conf line 2: invalid value for Count: 'lots'");
          assertThat(e.key()).isEqualTo("Count");
        });
    assertThatThrownBy(() -> GresConf.parse("Type=a100 File=/dev/nvidia0\n", GRES))
        .isInstanceOf(ConfigException.class).hasMessage("/etc/slurm/gres.conf line 1: missing Name= on a gres.conf line");
    assertThatThrownBy(() -> GresConf.parse("Name=gpu File=/dev/nvidia[3-1]\n", GRES))
        .isInstanceOf(ConfigException.class).hasMessageContaining("invalid value for File");
    assertThatThrownBy(() -> GresConf.parse("AutoDetect=magic\n", GRES))
        .isInstanceOf(ConfigException.class).hasMessageContaining("invalid value for AutoDetect");
  }

  @Test
  void gresLoadsFromFile(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("gres.conf"), "Name=gpu File=/dev/nvidia0 # one card\nName=nic Speed=9\n");
    GresConf g = GresConf.load(dir.resolve("gres.conf"));
    assertThat(g.entries()).extracting(GresEntry::count).containsExactly(1L, 1L);
    assertThat(g.warnings()).containsExactly("gres.conf line 2: unknown key Speed");
    assertThat(g.autoDetect("x")).isEmpty();
  }

  @Test
  void cgroupDefaultsAreSlurms() throws Exception {
    CgroupConf d = CgroupConf.parse("", CGROUP);
    assertThat(d).isEqualTo(CgroupConf.defaults());
    assertThat(d.cgroupPlugin()).isEqualTo("autodetect");
    assertThat(d.cgroupMountpoint()).isEqualTo(Path.of("/sys/fs/cgroup"));
    assertThat(d.constrainCores() || d.constrainRAMSpace() || d.constrainSwapSpace() || d.constrainDevices()).isFalse();
    assertThat(d.allowedRAMSpace()).isEqualTo(100.0);
    assertThat(d.allowedSwapSpace()).isZero();
    assertThat(d.maxRAMPercent()).isEqualTo(100.0);
    assertThat(d.minRAMSpaceMb()).isEqualTo(30);
  }

  @Test
  void cgroupValues() throws Exception {
    CgroupConf c = CgroupConf.parse("""
        CgroupPlugin=cgroup/v2
        CgroupMountpoint=/cg
        ConstrainCores=yes
        ConstrainRAMSpace=YES
        ConstrainSwapSpace=no
        ConstrainDevices=yes
        AllowedRAMSpace=97.5
        AllowedSwapSpace=10
        MaxRAMPercent=90
        MinRAMSpace=64
        CgroupAutomount=yes
        Unheard=1
        """, CGROUP);
    assertThat(c).isEqualTo(new CgroupConf("cgroup/v2", Path.of("/cg"), true, true, false, true, 97.5, 10, 90, 100, 64,
        false, List.of("cgroup.conf line 12: unknown key Unheard")));
  }

  @Test
  void cgroupBadValues() {
    assertThatThrownBy(() -> CgroupConf.parse("ConstrainCores=sometimes\n", CGROUP))
        .isInstanceOf(ConfigException.class)
        .hasMessage("/etc/slurm/cgroup.conf line 1: invalid value for ConstrainCores: 'sometimes'");
    assertThatThrownBy(() -> CgroupConf.parse("\nAllowedRAMSpace=-4\n", CGROUP))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).isEqualTo(2));
    assertThatThrownBy(() -> CgroupConf.parse("CgroupPlugin=cgroup/v3\n", CGROUP))
        .isInstanceOf(ConfigException.class).hasMessageContaining("CgroupPlugin");
  }
}
