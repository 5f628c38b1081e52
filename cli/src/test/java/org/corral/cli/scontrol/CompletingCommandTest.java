package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/** scontrol completing, as recorded from Slurm 22.05 (a space ends each line). */
class CompletingCommandTest {
  @Test
  void listsCompletingJobsWithTheirCompletingAndDownNodes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long end = Instant.parse("2026-11-28T12:58:52Z").getEpochSecond();
    JobInfo running = JobInfo.newBuilder().setJobId(4).setState(JobState.RUNNING).setNodes("n3").build();
    JobInfo five = JobInfo.newBuilder().setJobId(5).setState(JobState.CANCELLED).setCompleting(true)
        .setEndTime(end).setNodes("n[1-2]").build();
    JobInfo six = JobInfo.newBuilder().setJobId(6).setState(JobState.COMPLETED).setCompleting(true)
        .setEndTime(end - 3600).setNodes("n[1-4]").addAllEpilogNodes(List.of("n3", "n4")).build();
    NodeInfo n4 = NodeInfo.newBuilder().setName("n4").setBaseState(NodeBaseState.NODE_DOWN).build();
    Cli cli = new Cli("scontrol", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of(),
        Clock.fixed(Instant.ofEpochSecond(end + 1), ZoneOffset.UTC),
        () -> r -> r.hasJobInfo()
            ? Response.newBuilder().setJobInfo(JobInfoReply.newBuilder().addJobs(running).addJobs(five).addJobs(six)).build()
            : Response.newBuilder().setNodeInfo(NodeInfoReply.newBuilder().addNodes(n4)).build());
    assertThat(new ScontrolCommand(UserDirectory.none()).run(List.of("completing"), cli)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""
        JobId=5 EndTime=2026-11-28T12:58:52 CompletingTime=00:00:01 Nodes(COMPLETING)=n[1-2]\s
        JobId=6 EndTime=2026-11-28T11:58:52 CompletingTime=01:00:01 Nodes(COMPLETING)=n3 Nodes(DOWN)=n4\s
        """);
  }
}
