package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

/** A job whose node saw the OOM killer ends as Slurm 22.05 shows it: OUT_OF_MEMORY, OutOfMemory, 0:125. */
class OutOfMemoryTest {
  private static ClusterState running() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(1, 1010,
        List.of(NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build())));
  }

  @Test
  void oomEndsTheJobOutOfMemoryWithSlurmsExitCode() {
    ClusterState s = StateMachine.apply(running(), new Command.JobEnded(1, 1020, 0, "n1", true));
    JobInfo j = s.job(1).orElseThrow().getInfo();
    assertThat(j.getState()).isEqualTo(JobState.OUT_OF_MEMORY);
    assertThat(j.getStateReason()).isEqualTo("OutOfMemory");
    assertThat(j.getExitStatus()).isEqualTo(StateMachine.OOM_EXIT_STATUS);
    assertThat((j.getExitStatus() >> 8) + ":" + (j.getExitStatus() & 0x7f)).isEqualTo("0:125");
    assertThat(j.getEndTime()).isEqualTo(1020);
    assertThat(s.node("n1").orElseThrow().getAllocCpus()).isZero();
  }

  @Test
  void theFlagSurvivesTheJournal() throws Exception {
    Command c = new Command.JobEnded(1, 1020, 9, "n1", true);
    assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
    Command plain = new Command.JobEnded(1, 1020, 0, "n1");
    assertThat(CommandCodec.decode(CommandCodec.encode(plain))).isEqualTo(plain);
  }

  @Test
  void aCancelledJobStaysCancelledEvenIfTheKillerStruck() {
    ClusterState s = StateMachine.apply(running(), new Command.CancelJob(1, 1015, 0));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1020, 9, "n1", true));
    assertThat(s.job(1).orElseThrow().getInfo().getState()).isEqualTo(JobState.CANCELLED);
  }
}
