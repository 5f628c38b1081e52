package org.corral.slurmd.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import org.corral.common.config.SlurmConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HealthCheckTest {
  @TempDir Path dir;

  private HookSettings settings(Path program, int interval, Set<String> states) {
    return new HookSettings(Optional.empty(), Optional.empty(), Set.of(), Optional.empty(),
        Optional.empty(), 0, 60, Optional.of(program.toString()), interval, states, "/usr/bin:/bin");
  }

  private Path program(String body) throws Exception {
    Path p = dir.resolve("check");
    Files.writeString(p, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  @Test
  void runsTheProgramWithTheNodesNameAndConfigurationAndReportsItsStatus() throws Exception {
    Path out = dir.resolve("seen");
    Path p = program("echo \"$SLURMD_NODENAME $SLURM_CONF\" > " + out + "\nexit 3\n");
    try (HealthCheck check = new HealthCheck(settings(p, 0, Set.of("ANY")), "n7", "/etc/x.conf", () -> 0)) {
      assertThat(check.runNow()).isEqualTo(3);
    }
    assertThat(Files.readString(out)).isEqualTo("n7 /etc/x.conf\n");
  }

  @Test
  void runsEveryIntervalWhileTheNodeStateMatches() throws Exception {
    Path out = dir.resolve("count");
    Path p = program("echo x >> " + out + "\n");
    try (HealthCheck check = new HealthCheck(settings(p, 1, Set.of("IDLE")), "n1", "/c", () -> 0)) {
      check.start();
      Thread.sleep(2600);
    }
    assertThat(Files.readAllLines(out)).hasSizeBetween(2, 3);
  }

  @Test
  void nodeStatesSelectWhenToRun() {
    assertThat(HealthCheck.stateMatches(Set.of("ANY"), 3)).isTrue();
    assertThat(HealthCheck.stateMatches(Set.of("IDLE"), 0)).isTrue();
    assertThat(HealthCheck.stateMatches(Set.of("IDLE"), 1)).isFalse();
    assertThat(HealthCheck.stateMatches(Set.of("ALLOC", "CYCLE"), 0)).isFalse();
    assertThat(HealthCheck.stateMatches(Set.of("MIXED"), 2)).isTrue();
    assertThat(HealthCheck.stateMatches(Set.of("CYCLE"), 2)).isTrue();
  }

  @Test
  void settingsComeFromSlurmConf() throws Exception {
    SlurmConfig cfg = SlurmConfig.parse("""
        ClusterName=c
        SlurmctldHost=h
        Prolog=/etc/slurm/prolog.d/*
        Epilog=/etc/slurm/epilog
        PrologFlags=Contain,Serial
        TaskProlog=/tp
        HealthCheckProgram=/usr/sbin/nhc
        HealthCheckInterval=300
        HealthCheckNodeState=idle,cycle
        UnkillableStepTimeout=120
        PrologEpilogTimeout=65534
        NodeName=n1
        PartitionName=p Nodes=ALL
        """, dir.resolve("slurm.conf"));
    HookSettings s = HookSettings.of(cfg, Optional.of("/opt/corral/bin"));
    assertThat(s.prolog()).contains("/etc/slurm/prolog.d/*");
    assertThat(s.epilog()).contains("/etc/slurm/epilog");
    assertThat(s.prologAtAllocation()).isTrue();
    assertThat(s.taskProlog()).contains("/tp");
    assertThat(s.taskEpilog()).isEmpty();
    assertThat(s.healthCheckInterval()).isEqualTo(300);
    assertThat(s.healthCheckNodeStates()).containsExactlyInAnyOrder("IDLE", "CYCLE");
    assertThat(s.unkillableStepTimeout()).isEqualTo(120);
    assertThat(s.prologEpilogTimeout()).isZero();
    assertThat(s.path()).isEqualTo("/opt/corral/bin:" + HookEnvironment.PATH);
    HookSettings defaults = HookSettings.of(SlurmConfig.parse("SlurmctldHost=h\nNodeName=n1\n",
        dir.resolve("slurm.conf")), Optional.empty());
    assertThat(defaults.unkillableStepTimeout()).isEqualTo(60);
    assertThat(defaults.healthCheckNodeStates()).containsExactly("ANY");
    assertThat(defaults.prolog()).isEmpty();
    assertThat(defaults.path()).isEqualTo(HookEnvironment.PATH);
  }

  @Test
  void aGlobRunsEveryMatchInOrderUntilOneFails() throws Exception {
    Path d = Files.createDirectories(dir.resolve("prolog.d"));
    Path log = dir.resolve("log");
    for (String name : new String[] {"10-a", "20-b", "30-c"}) {
      Path p = d.resolve(name);
      Files.writeString(p, "#!/bin/sh\necho " + name + " >> " + log + "\n" + (name.equals("20-b") ? "exit 4\n" : ""));
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    int rc = new HookProgram(d + "/*", "prolog").run(java.util.Map.of("PATH", "/usr/bin:/bin"), 10);
    assertThat(rc).isEqualTo(4);
    assertThat(Files.readAllLines(log)).containsExactly("10-a", "20-b");
  }
}
