package org.corral.cli.sstat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepUsage;
import org.junit.jupiter.api.Test;

class SstatCommandTest {
  private final List<Request> sent = new ArrayList<>();

  private static final StepUsage BATCH = StepUsage.newBuilder().setJobId(82).setStep("batch").setNodes("lhs-01")
      .setNtasks(1).setMaxVmsizeKb(78972).setMaxVmsizeNode("lhs-01").setAveVmsizeKb(10700).setMaxRssKb(1188)
      .setMaxRssNode("lhs-01").setAveRssKb(1180).setMaxPages(1).setMaxPagesNode("lhs-01").setAvePages(1)
      .setMinCpuNode("lhs-01").setAveCpuFreqKhz(2_810_000).setMaxDiskRead(8909).setMaxDiskReadNode("lhs-01")
      .setAveDiskRead(8909).setMaxDiskWriteNode("lhs-01").addPids(8302).addPids(8301).build();

  private CommandRun run(Response answer, String... args) {
    RpcChannel controller = request -> {
      sent.add(request);
      return answer;
    };
    return CommandRun.of(new SstatCommand(), "sstat", Map.of(), Clock.systemUTC(), controller, List.of(args));
  }

  private static Response steps(StepUsage... usage) {
    return Response.newBuilder().setStepStat(StepStatReply.newBuilder().setJobRunning(true)
        .addAllSteps(List.of(usage))).build();
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = SstatCommandTest.class.getResourceAsStream("/sstat/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void defaultLayoutIsSlurms() throws Exception {
    CommandRun r = run(steps(BATCH), "-j", "82.batch");
    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    String[] lines = r.out().split("\n", -1);
    assertThat(lines[0] + "\n" + lines[1] + "\n").isEqualTo(golden("default-header.txt"));
    // The row as Slurm 22.05 prints such a step (recorded on a real cluster).
    assertThat(lines[2]).startsWith("82.batch         78972K         lhs-01              0     10700K      1188K"
        + "     lhs-01          0      1180K        1       lhs-01              0          1  00:00.000"
        + "     lhs-01          0  00:00.000        1      2.81M             0             0             0"
        + "              0         8909          lhs-01               0         8909            0"
        + "           lhs-01                0            0 cpu=00:00:00,+ cpu=00:00:00,+ cpu=lhs-01,energy+"
        + " cpu=00:00:00,fs/d+ cpu=00:00:00,+ cpu=lhs-01,energy+ cpu=00:00:00,fs/d+ cpu=00:00:00,+"
        + " energy=0,fs/di+ energy=0,fs/di+ energy=lhs-01,fs/d+           fs/disk=0 energy=0,fs/di+"
        + " energy=lhs-01,fs/d+           fs/disk=0 energy=0,fs/di+ ");
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getStepStat().getJobId()).isEqualTo(82);
    assertThat(sent.get(0).getStepStat().getStep()).isEqualTo("batch");
  }

  @Test
  void parsableFormsAndFormatWidths() throws Exception {
    assertThat(run(steps(BATCH), "-p", "-j", "82.batch").out()).startsWith(golden("parsable-header.txt"));
    assertThat(run(steps(BATCH), "-P", "-j", "82.batch").out()).startsWith(golden("parsable2-header.txt"));
    CommandRun o = run(steps(BATCH), "-o", "JobID,MaxRSS,AveCPU,NTasks,MaxVMSize%20,AveRSS%-12", "-j", "82.batch");
    assertThat(o.out()).isEqualTo(golden("format-header.txt")
        + "82.batch          1188K  00:00.000        1               78972K 1180K        \n");
    CommandRun p = run(steps(BATCH), "-nP", "--format=jobid,ntasks,maxrss,pids,nodelist", "-j", "82.batch");
    assertThat(p.out()).isEqualTo("82.batch|1|1188K|8302,8301|lhs-01\n");
    assertThat(run(steps(BATCH), "--noheader", "-p", "-o", "JobID", "-j", "82.batch").out()).isEqualTo("82.batch|\n");
  }

  @Test
  void helpFormatListsTheFieldsAsSlurmDoes() throws Exception {
    assertThat(run(steps(), "-e").out()).isEqualTo(golden("helpformat.txt"));
  }

  @Test
  void errorsAreSlurms() {
    CommandRun none = run(steps(), "-o", "JobID");
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.err()).isEqualTo("sstat: error: You didn't give me any jobs to stat.\n");
    assertThat(run(steps(), "-j", "abc").err()).isEqualTo("sstat: fatal: Bad job/step specified: abc\n");
    CommandRun field = run(steps(), "-o", "Foo", "-j", "1");
    assertThat(field.exitCode()).isEqualTo(1);
    assertThat(field.err()).isEqualTo("sstat: error: Invalid field requested: \"Foo\"\n");
    CommandRun missing = run(Response.newBuilder().setErrorCode(SlurmError.INVALID_JOB_ID.code()).build(),
        "-n", "-j", "99999");
    assertThat(missing.exitCode()).isZero();
    assertThat(missing.err()).isEqualTo("sstat: error: couldn't get steps for job 99999\n");
    CommandRun step = run(steps(), "-n", "-j", "5.7");
    assertThat(step.exitCode()).isZero();
    assertThat(step.err()).isEqualTo("sstat: error: StepId=5.7 not found running.\n");
    CommandRun pending = run(Response.newBuilder().setStepStat(StepStatReply.getDefaultInstance()).build(),
        "-n", "-j", "5");
    assertThat(pending.err()).isEqualTo("sstat: error: No steps running for job 5\n");
    assertThat(run(steps(), "-n", "-j", "5").err()).isEmpty();
    CommandRun denied = run(Response.newBuilder().setErrorCode(SlurmError.USER_ID_MISSING.code())
        .setErrorMessage("n[1-2]").build(), "-n", "-j", "5.batch");
    assertThat(denied.exitCode()).isZero();
    assertThat(denied.err()).isEqualTo(
        "sstat: error: slurm_job_step_stat: there was an error with the request to n1 rc = Invalid user id\n"
        + "sstat: error: problem getting step_layout for StepId=5.batch: Invalid user id\n");
  }

  @Test
  void anUnreachableControllerIsLikeAMissingJob() throws Exception {
    // Recorded on the reference with SlurmctldPort pointing nowhere: header, one error, exit 0.
    CommandRun r = CommandRun.of(new SstatCommand(), "sstat", Map.of(), Clock.systemUTC(),
        CommandRun.recording(new ArrayList<>(), new IOException("connect failure"), null), List.of("-j", "5.batch"));
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo(golden("default-header.txt"));
    assertThat(r.err()).isEqualTo("sstat: error: couldn't get steps for job 5\n");
  }

  @Test
  void aBadOptionIsGetoptsLineAlone() {
    CommandRun r = run(steps(), "-x");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("sstat: invalid option -- 'x'\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void allStepsAndSeveralJobsGoInOneRequestEach() {
    run(steps(BATCH), "-a", "-n", "-j", "5,6.batch");
    assertThat(sent).hasSize(2);
    assertThat(sent.get(0).getStepStat().getAllSteps()).isTrue();
    assertThat(sent.get(0).getStepStat().getStep()).isEmpty();
    assertThat(sent.get(1).getStepStat().getJobId()).isEqualTo(6);
  }

  @Test
  void sizesCpuTimesAndFrequencies() {
    assertThat(UsageText.kib(4096, false)).isEqualTo("4M");
    assertThat(UsageText.kib(4096, true)).isEqualTo("4096K");
    assertThat(UsageText.kib(1298188, false)).isEqualTo("1298188K");
    assertThat(UsageText.kib(0, false)).isEqualTo("0");
    assertThat(UsageText.count(8909, false)).isEqualTo("8909");
    assertThat(UsageText.count(2048, false)).isEqualTo("2K");
    assertThat(UsageText.cpuTime(1502_004)).isEqualTo("25:02.004");
    assertThat(UsageText.cpuTime(2_365_000)).isEqualTo("39:25.000");
    assertThat(UsageText.cpuTime(3_725_000)).isEqualTo("01:02:05");
    assertThat(UsageText.cpuTime(90_000_000)).isEqualTo("1-01:00:00");
    assertThat(UsageText.kilohertz(984_000)).isEqualTo("984K");
    assertThat(UsageText.kilohertz(2_800_000)).isEqualTo("2.80M");
    assertThat(UsageText.kilohertz(2_810_000)).isEqualTo("2.81M");
  }
}
