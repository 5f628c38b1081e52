package org.corral.cli.salloc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.cli.sbatch.SubmitterFacts;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.FixedSubmitterFacts;
import org.corral.cli.submit.SignalQueue;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobReply;
import org.corral.protocol.msg.WaitAllocationReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** salloc runs its command here, with the allocation's variables, and releases the allocation. */
class SallocCommandTest {

  @TempDir
  Path dir;

  private final List<Request> sent = new ArrayList<>();
  private final Deque<Response> answers = new ArrayDeque<>();
  private final RpcChannel channel = r -> {
    sent.add(r);
    return answers.isEmpty() ? Response.getDefaultInstance() : answers.poll();
  };

  private SubmitterFacts facts() {
    return new FixedSubmitterFacts("login1", dir);
  }

  private CommandRun salloc(String... args) {
    answers.add(Response.newBuilder().setSubmitJob(SubmitJobReply.newBuilder().setJobId(9)).build());
    answers.add(Response.newBuilder().setWaitAllocation(WaitAllocationReply.newBuilder().setJob(JobInfo.newBuilder()
        .setJobId(9).setName("interactive").setState(JobState.RUNNING).setNodes("n[1-2]").setNumNodes(2)
        .setPartition("debug").addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(1))
        .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(1)))).build());
    var command = new SallocCommand(facts(), env -> new ClusterFacts("c", "h", 6817, 30, Path.of("/etc/slurm.conf")),
        SignalQueue::new);
    return CommandRun.of(command, "salloc", Map.of("PATH", System.getenv("PATH")), Clock.systemUTC(), channel,
        List.of(args));
  }

  @Test
  void theCommandRunsWithTheAllocationsVariablesAndItsExitCodeIsSallocs() throws Exception {
    CommandRun r = salloc("-N2", "sh", "-c", "echo $SLURM_JOB_ID $SLURM_NNODES $SLURM_TASKS_PER_NODE $PWD > seen; exit 4");
    assertThat(r.exitCode()).isEqualTo(4);
    assertThat(r.err()).isEqualTo("salloc: Granted job allocation 9\nsalloc: Relinquishing job allocation 9\n");
    assertThat(Files.readString(dir.resolve("seen"))).isEqualTo("9 2 1(x2) " + dir + "\n");
    assertThat(sent.get(0).getSubmitJob().getSpec().getInteractive()).isTrue();
    assertThat(sent.get(0).getSubmitJob().getSpec().getName()).isEqualTo("interactive");
    Request last = sent.get(sent.size() - 1);
    assertThat(last.getCompleteAllocation().getJobId()).isEqualTo(9);
    assertThat(last.getCompleteAllocation().getExitStatus()).isEqualTo(4 << 8);
  }

  @Test
  void aMissingCommandIsReportedAndTheAllocationReleased() {
    CommandRun r = salloc("no_such_command_xyz");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("salloc: Granted job allocation 9\n"
        + "salloc: error: _fork_command: Unable to find command \"no_such_command_xyz\"\n"
        + "salloc: Relinquishing job allocation 9\n");
    assertThat(sent.get(sent.size() - 1).hasCompleteAllocation()).isTrue();
  }

  @Test
  void noShellOnlyAllocates() {
    CommandRun r = salloc("--no-shell");
    assertThat(r.exitCode()).isZero();
    assertThat(sent.get(0).getSubmitJob().getSpec().getName()).isEqualTo("no-shell");
    assertThat(sent).noneMatch(Request::hasCompleteAllocation);
  }
}
