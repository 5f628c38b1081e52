package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.common.config.CgroupConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LimiterSelectionTest {
  @TempDir Path mount;

  @Test
  void autodetectPicksCgroup2WhereTheMountIsUnified() throws Exception {
    Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu memory\n");
    ResourceLimiter chosen = LimiterSelection.choose(CgroupFs.plainTree(), CgroupConf.defaults(), mount,
        "0::/\n", new NodeCgroupName("c1", "n1"), 0, 1);
    assertThat(chosen.name()).isEqualTo("cgroup/v2");
    assertThat(mount.resolve("c1/slurm_n1")).isDirectory();
  }

  @Test
  void autodetectPicksV1WhereControllersHaveTheirOwnMounts() throws Exception {
    for (String c : new String[] {"memory", "cpuset", "cpuacct"}) {
      Files.createDirectories(mount.resolve(c));
      Files.writeString(mount.resolve(c).resolve("cgroup.procs"), "");
    }
    Files.writeString(mount.resolve("cpuset/cpuset.cpus"), "0-3\n");
    Files.writeString(mount.resolve("cpuset/cpuset.mems"), "0\n");
    ResourceLimiter chosen = LimiterSelection.choose(CgroupFs.plainTree(),
        CgroupConf.parse("ConstrainCores=yes\n", Path.of("cgroup.conf")), mount,
        "4:memory:/\n3:cpuset:/\n2:cpuacct:/\n0::/\n", new NodeCgroupName("c1", "n2"), 0, 1);
    assertThat(chosen.name()).isEqualTo("cgroup/v1");
    assertThat(Files.readString(mount.resolve("cpuset/c1/slurm_n2/cpuset.cpus"))).isEqualTo("0-3\n");
    // Without ConstrainCores the cpuset hierarchy is left alone (joining it is slow).
    ResourceLimiter unpinned = LimiterSelection.choose(CgroupFs.plainTree(), CgroupConf.defaults(), mount,
        "4:memory:/\n3:cpuset:/\n2:cpuacct:/\n0::/\n", new NodeCgroupName("c1", "n3"), 0, 1);
    assertThat(unpinned.name()).isEqualTo("cgroup/v1");
    assertThat(mount.resolve("cpuset/c1/slurm_n3")).doesNotExist();
    assertThat(mount.resolve("memory/c1/slurm_n3")).isDirectory();
  }

  @Test
  void nothingUsableMeansNoConfinement() throws Exception {
    ResourceLimiter chosen = LimiterSelection.choose(CgroupFs.plainTree(),
        CgroupConf.parse("CgroupPlugin=cgroup/v2\n", Path.of("cgroup.conf")), mount, "0::/\n", new NodeCgroupName("c1", "n1"), 0, 1);
    assertThat(chosen.name()).isEqualTo("none");
    assertThat(chosen.confines()).isFalse();
  }
}
