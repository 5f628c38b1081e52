package org.corral.cli.seff;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepUsage;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * seff against Slurm's own contribs/seff script: each golden/seff/NAME.job describes a job
 * record; NAME.out/.err/.rc are what the unmodified seff perl script printed for the same job
 * handed to it by stub Slurm/Slurmdb perl modules (a step's tres_usage_in_tot memory being its
 * tasks' average peak RSS times their number, max and ave its MaxRSS and AveRSS).
 */
class SeffGoldenTest {
  static final long NOW = 1_795_481_800L;
  static final List<String> CASES = List.of("steps_2nodes", "usage_4cpus", "failed_mem_per_node", "running",
      "pending", "array_task", "long_big", "cancelled_signal");

  static String resource(String name) throws IOException {
    try (InputStream in = SeffGoldenTest.class.getResourceAsStream("/golden/seff/" + name)) {
      if (in == null) {
        throw new IOException("missing golden/seff/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> m = new HashMap<>();
    for (String kv : line.trim().split(" ")) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return m;
  }

  /** The job a .job file describes, as slurmdbd would hand it over. */
  static AcctJob job(String spec) {
    List<String> lines = spec.lines().filter(l -> !l.isBlank()).toList();
    Map<String, String> j = fields(lines.get(0));
    AcctJob.Builder b = AcctJob.newBuilder().setCluster("reference").setJobId(Integer.parseInt(j.get("job")))
        .setUserName(j.get("user")).setUserId(Integer.parseInt(j.get("uid"))).setGroupId(Integer.parseInt(j.get("gid")))
        .setGroupName(j.get("user")).setState(JobState.forNumber(Integer.parseInt(j.get("state"))))
        .setExitStatus(Integer.parseInt(j.get("exit"))).setNumCpus(Integer.parseInt(j.get("cpus")))
        .setNumNodes(Integer.parseInt(j.get("nodes"))).setStartTime(Long.parseLong(j.get("start")))
        .setEndTime(Long.parseLong(j.get("end"))).setAllocMemMb(Long.parseLong(j.get("alloc_mem_mb")))
        .setReqMemMb(Long.parseLong(j.get("req_mem_mb"))).setMemPerCpu(j.get("mem_per_cpu").equals("1"));
    if (j.containsKey("array_job")) {
      b.setArrayJobId(Integer.parseInt(j.get("array_job"))).setArrayTaskId(Integer.parseInt(j.get("array_task")));
    }
    for (String line : lines.subList(1, lines.size())) {
      Map<String, String> s = fields(line);
      b.addSteps(AcctStep.newBuilder().setStepId(s.get("step").equals("batch") ? StepIds.BATCH
          : Integer.parseInt(s.get("step"))).setUsage(StepUsage.newBuilder().setNtasks(Integer.parseInt(s.get("tasks")))
          .setUserCpuMs(Long.parseLong(s.get("user_ms"))).setSysCpuMs(Long.parseLong(s.get("sys_ms")))
          .setMaxRssKb(Long.parseLong(s.get("max_rss_kb"))).setAveRssKb(Long.parseLong(s.get("ave_rss_kb")))));
    }
    return b.build();
  }

  record Run(String out, String err, int rc, List<JobQueryRequest> asked) {}

  static Run run(List<AcctJob> stored, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    List<JobQueryRequest> asked = new ArrayList<>();
    Cli cli = new Cli("seff", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
        Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC),
        () -> { throw new IllegalStateException("seff never asks the controller"); },
        () -> request -> {
          asked.add(request.getJobQuery());
          return Response.newBuilder().setJobQuery(JobQueryReply.newBuilder().addAllJobs(stored)).build();
        });
    int rc = new SeffCommand().run(Arrays.asList(args), cli);
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc, asked);
  }

  @TestFactory
  Stream<DynamicTest> matchesSlurmsSeffScript() {
    return CASES.stream().map(c -> DynamicTest.dynamicTest(c, () -> {
      AcctJob job = job(resource(c + ".job"));
      Run r = run(List.of(job), Integer.toString(job.getJobId()));
      assertThat(r.out()).as("stdout").isEqualTo(resource(c + ".out"));
      assertThat(r.err()).as("stderr").isEqualTo(resource(c + ".err"));
      assertThat(r.rc()).as("exit status").isEqualTo(Integer.parseInt(resource(c + ".rc").trim()));
    }));
  }

  @Test
  void asksForTheJobWhoeverRanIt() {
    Run r = run(List.of(), "7_2");
    assertThat(r.asked()).singleElement().satisfies(q -> {
      assertThat(q.getJobIdsList()).containsExactly("7_2");
      assertThat(q.getAllUsers()).isTrue();
    });
  }

  @Test
  void anUnknownJobIsNotFound() {
    Run r = run(List.of(), "999");
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("Job not found.\n");
    assertThat(r.rc()).isEqualTo(2);
  }

  @Test
  void usageAndVersionAsTheScriptPrintsThem() {
    String usage = "Usage: seff [Options] <Jobid>\n       Options:\n       -h    Help menu\n"
        + "       -v    Version\n       -d    Debug mode: display raw Slurm data\n";
    assertThat(run(List.of())).extracting(Run::out, Run::rc).containsExactly(usage, 1);
    assertThat(run(List.of(), "1", "2")).extracting(Run::out, Run::rc).containsExactly(usage, 1);
    assertThat(run(List.of(), "-h", "1")).extracting(Run::out, Run::rc).containsExactly(usage, 1);
    assertThat(run(List.of(), "-v")).extracting(Run::out, Run::rc).containsExactly("seff Version 2.1\n", 1);
    assertThat(run(List.of(), "-v").asked()).isEmpty();
  }
}
