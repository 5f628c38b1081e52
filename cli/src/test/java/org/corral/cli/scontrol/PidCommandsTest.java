package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scontrol listpids and pidinfo over a node spool laid out as slurmd writes it, with a real
 * process (a shell and its sleeping child) standing in for a batch job: Slurm 22.05's columns
 * and messages.
 */
class PidCommandsTest {
  @TempDir Path dir;
  private Process shell;
  private long shellPid;
  private Map<String, String> env;

  @BeforeEach
  void spool() throws Exception {
    Files.writeString(dir.resolve("slurm.conf"), """
        ClusterName=t
        SlurmctldHost=localhost
        SlurmdSpoolDir=%s/spool/%%n
        NodeName=n[1-2] CPUs=2 RealMemory=100
        PartitionName=debug Nodes=ALL Default=YES
        """.formatted(dir));
    shell = new ProcessBuilder("/bin/sh", "-c", "sleep 60; true").start();
    shellPid = shell.pid();
    long child = 0;
    for (int i = 0; i < 100 && child == 0; i++) { // the shell's sleep, once forked
      child = shell.children().findFirst().map(ProcessHandle::pid).orElse(0L);
      Thread.sleep(20);
    }
    assertThat(child).isPositive();
    Path job = dir.resolve("spool/n1/job00007");
    Files.createDirectories(job);
    Files.writeString(job.resolve("record"), "wrapper 1 2\npid " + shellPid + "\n");
    env = Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString());
  }

  @AfterEach
  void stop() {
    shell.descendants().forEach(ProcessHandle::destroyForcibly);
    shell.destroyForcibly();
  }

  private CommandRun run(String... args) {
    JobInfo j = JobInfo.newBuilder().setJobId(7).setEndTime(Instant.parse("2026-11-28T14:00:00Z").getEpochSecond())
        .build();
    return CommandRun.of(new ScontrolCommand(UserDirectory.none()), "scontrol", env,
        Clock.fixed(Instant.parse("2026-11-28T13:00:00Z"), ZoneOffset.UTC),
        r -> Response.newBuilder().setJobInfo(JobInfoReply.newBuilder().addJobs(j)).build(), List.of(args));
  }

  @Test
  void listpidsShowsTheBatchShellAndWhatRunsBelowIt() {
    long child = shell.children().findFirst().orElseThrow().pid();
    String rows = String.format("%-8d %-8d %-8s %-7s %-8s%n%-8d %-8d %-8s %-7s %-8s%n",
        shellPid, 7, "batch", "0", "0", child, 7, "batch", "-", "-");
    CommandRun all = run("listpids");
    assertThat(all.exitCode()).isZero();
    assertThat(all.out()).isEqualTo("PID      JOBID    STEPID   LOCALID GLOBALID\n" + rows);
    assertThat(run("listpids", "7", "n1").out()).endsWith(rows);
    assertThat(run("listpids", "*").out()).endsWith(rows);
  }

  @Test
  void listpidsMessagesAsTheReference() {
    CommandRun none = run("listpids", "99");
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.out()).isEqualTo("PID      JOBID    STEPID   LOCALID GLOBALID\n");
    assertThat(none.err()).isEqualTo("There are no steps for job 99 on node (null).\n");
    assertThat(run("listpids", "7", "n2").err()).isEqualTo("JobId=7 does not exist on node n2.\n");
    assertThat(run("listpids", "7.0").err()).isEqualTo("StepId=7.0 does not exist on node (null).\n");
    CommandRun batch = run("listpids", "7.batch");
    assertThat(batch.exitCode()).isZero();
    assertThat(batch.err()).isEqualTo("\"7.batch\" does not look like a stepid\n");
    CommandRun abc = run("listpids", "abc");
    assertThat(abc.exitCode()).isEqualTo(1);
    assertThat(abc.out()).isEmpty();
    assertThat(abc.err()).isEqualTo("\"abc\" does not look like a jobid\n");
  }

  @Test
  void pidinfoNamesTheJobAndItsEnd() {
    long child = shell.children().findFirst().orElseThrow().pid();
    CommandRun r = run("pidinfo", Long.toString(child));
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("Slurm job id 7 ends at 2026-11-28T14:00:00\nslurm_get_rem_time is 3600\n");
    assertThat(run("pidinfo", "1").err()).isEqualTo("Failed to locate job for requested pid\n");
    assertThat(run("pidinfo", "abc").err()).isEqualTo("Failed to locate job for requested pid\n");
    assertThat(run("pidinfo").err()).isEqualTo("missing argument for keyword:pidinfo\n");
  }
}
