package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.api.Test;

/** Job arrays: one pending record whose tasks split off as they start, within the throttle. */
class ArrayPlanningTest {
  private static List<Command> pass(ClusterState[] s, long now) {
    List<Command> cmds = PlanCheck.accept(s[0], Planner.plan(s[0], now), now);
    for (Command c : cmds) {
      if (c.durable()) { // what is journaled replays as itself
        try {
          assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(c);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
      s[0] = StateMachine.apply(s[0], c);
    }
    return cmds;
  }

  private static JobInfo job(ClusterState s, int id) {
    return s.job(id).orElseThrow().getInfo();
  }

  @Test
  void tasksStartWithinTheThrottleAndTheLastTakesTheArraysId() {
    ClusterState[] s = {TestStates.cluster(1, 8, 4000)};
    s[0] = TestStates.submit(s[0], 1, TestStates.spec().setArray("0-3%2").setStdOut("o-%A_%a").build(), 1000);
    s[0] = TestStates.submit(s[0], 2, TestStates.spec().build(), 1001);
    pass(s, 2000);
    assertThat(job(s[0], 1).getArrayTasks()).isEqualTo("2-3%2");
    assertThat(job(s[0], 1).getStateReason()).isEqualTo("JobArrayTaskLimit");
    assertThat(job(s[0], 3).getArrayTaskId()).isZero();
    assertThat(job(s[0], 3).getArrayJobId()).isEqualTo(1);
    assertThat(job(s[0], 3).getState()).isEqualTo(JobState.RUNNING);
    assertThat(job(s[0], 3).getStdOut()).isEqualTo("/home/alice/o-1_0");
    assertThat(job(s[0], 4).getArrayTaskId()).isEqualTo(1);
    assertThat(job(s[0], 2).getState()).isEqualTo(JobState.RUNNING); // the throttle blocks nothing else

    s[0] = StateMachine.apply(s[0], new Command.JobEnded(3, 2010, 0, "n1"));
    s[0] = StateMachine.apply(s[0], new Command.JobEnded(4, 2010, 0, "n1"));
    pass(s, 2011);
    assertThat(job(s[0], 5).getArrayTaskId()).isEqualTo(2);
    JobInfo last = job(s[0], 1);
    assertThat(last.getArrayTasks()).isEmpty();
    assertThat(last.getArrayTaskId()).isEqualTo(3);
    assertThat(last.getState()).isEqualTo(JobState.RUNNING);
    assertThat(s[0].nextJobId()).isEqualTo(6);
  }

  @Test
  void cancellingPendingTasksLeavesTheRest() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1,
        TestStates.spec().setArray("0-2").setHold(true).build(), 1000);
    s = StateMachine.apply(s, new Command.CancelArrayTask(1, 1, 1100, 1000));
    assertThat(job(s, 1).getArrayTasks()).isEqualTo("0,2");
    s = StateMachine.apply(s, new Command.CancelArrayTask(1, 0, 1101, 1000));
    s = StateMachine.apply(s, new Command.CancelArrayTask(1, 2, 1102, 1000));
    assertThat(job(s, 1).getState()).isEqualTo(JobState.CANCELLED);
    assertThat(job(s, 1).getArrayTaskId()).isEqualTo(2);
  }
}
