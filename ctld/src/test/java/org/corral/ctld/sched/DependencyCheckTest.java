package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.ctld.sched.DependencyCheck.Result;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

class DependencyCheckTest {
  private static final List<NodeAllocation> N1 =
      List.of(NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build());

  private static Result check(ClusterState s, String dependency, long now) {
    JobInfo j = JobInfo.newBuilder().setJobId(99).setUserId(1000).setName("x").setDependency(dependency).build();
    return new DependencyCheck(s, now).check(j);
  }

  @Test
  void anArrayIdWaitsForEveryTaskAndATaskIdForItsOwn() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().setArray("0-1").build(), 1000);
    s = StateMachine.apply(s, new Command.StartArrayTask(1, 0, 2, 1001, N1));
    assertThat(check(s, "afterok:1", 1002)).isEqualTo(Result.WAITING);
    s = StateMachine.apply(s, new Command.JobEnded(2, 1003, 0, "n1"));
    assertThat(check(s, "afterok:1_0", 1004)).isEqualTo(Result.SATISFIED);
    assertThat(check(s, "afterok:1_1", 1004)).isEqualTo(Result.WAITING);
    assertThat(check(s, "afterok:1", 1004)).isEqualTo(Result.WAITING);
    s = StateMachine.apply(s, new Command.StartArrayTask(1, 1, 1, 1005, N1));
    s = StateMachine.apply(s, new Command.JobEnded(1, 1006, 1 << 8, "n1"));
    assertThat(check(s, "afterok:1", 1007)).isEqualTo(Result.NEVER);
    assertThat(check(s, "afterany:1", 1007)).isEqualTo(Result.SATISFIED);
  }

  @Test
  void afterWithMinutesWaitsThatLongAfterTheStart() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    assertThat(check(s, "after:1+2", 1001)).isEqualTo(Result.WAITING);
    s = StateMachine.apply(s, new Command.StartJob(1, 1010, N1));
    assertThat(check(s, "after:1+2", 1100)).isEqualTo(Result.WAITING);
    assertThat(check(s, "after:1+2", 1130)).isEqualTo(Result.SATISFIED);
    assertThat(check(s, "after:1", 1011)).isEqualTo(Result.SATISFIED);
  }

  @Test
  void singletonWaitsForTheSameUsersJobOfTheSameName() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().setName("x").build(), 1000);
    s = StateMachine.apply(s, new Command.SubmitJob(2, 1001, 2000, "bob", 2000, "bob", TestStates.spec().setName("x").build()));
    assertThat(check(s, "singleton", 1002)).isEqualTo(Result.WAITING); // alice's job 1 (uid 1000) is queued
    s = StateMachine.apply(s, new Command.CancelJob(1, 1003, 0));
    assertThat(check(s, "singleton", 1004)).isEqualTo(Result.SATISFIED); // bob's job does not count
  }

  @Test
  void aDependencyFoundNeverSatisfiableStaysSoOnceItsTargetIsPurged() {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    JobInfo failed = JobInfo.newBuilder().setDependency("afterok:99").setStateReason("DependencyNeverSatisfied").build();
    JobInfo fresh = JobInfo.newBuilder().setDependency("afterok:99").build();
    assertThat(new DependencyCheck(s, 1000).check(failed)).isEqualTo(Result.NEVER);
    assertThat(new DependencyCheck(s, 1000).check(fresh)).isEqualTo(Result.SATISFIED); // purged, never seen failing
  }
}
