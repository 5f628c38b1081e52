package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.common.ReservationFlags;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.ReservationInfo;
import org.junit.jupiter.api.Test;

/** PURGE_COMP: a reservation idle (no job) for its time since it began or its last job ended is deleted. */
class ReservationPurgeTest {
  private static ClusterState reserve(ClusterState s, long purge) {
    ReservationInfo r = ReservationInfo.newBuilder().setName("r").setStartTime(1000).setEndTime(90000)
        .addNodeNames("n1").addUsers("alice").addFlags(ReservationFlags.PURGE_COMP).setPurgeCompTime(purge).build();
    return StateMachine.apply(s, new Command.CreateReservation(r, 900));
  }

  private static List<Command> idle(ClusterState s, long now) {
    return ReservationCalendar.idle(s, now);
  }

  @Test
  void anActiveReservationWithNoJobGoesItsTimeAfterItBegan() {
    ClusterState s = reserve(TestStates.cluster(2, 8, 4000), 60);
    assertThat(idle(s, 999)).isEmpty(); // not begun
    assertThat(idle(s, 1059)).isEmpty();
    assertThat(idle(s, 1060)).containsExactly(new Command.DeleteReservation("r", 1060));
    ClusterState gone = StateMachine.apply(s, idle(s, 1060).get(0));
    assertThat(gone.reservations().all()).isEmpty();
  }

  @Test
  void withoutTheFlagOrWithAJobPendingOrRunningItStays() {
    ClusterState plain = StateMachine.apply(TestStates.cluster(2, 8, 4000), new Command.CreateReservation(
        ReservationInfo.newBuilder().setName("p").setStartTime(1000).setEndTime(90000).addNodeNames("n1")
            .addUsers("alice").build(), 900));
    assertThat(idle(plain, 50000)).isEmpty();
    ClusterState s = reserve(TestStates.cluster(2, 8, 4000), 60);
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("r").build(), 1001);
    assertThat(idle(s, 5000)).isEmpty(); // pending
    s = StateMachine.apply(s, new Command.StartJob(1, 1002, List.of(NodeAllocation.newBuilder().setNode("n1")
        .setCpus(1).setMemMb(100).build())));
    assertThat(idle(s, 5000)).isEmpty(); // running
  }

  @Test
  void idleCountsFromTheLastJobsEndEvenAfterThatJobIsPurged() {
    ClusterState s = reserve(TestStates.cluster(2, 8, 4000), 600);
    s = TestStates.submit(s, 1, TestStates.spec().setReservation("r").build(), 1001);
    s = StateMachine.apply(s, new Command.StartJob(1, 1002, List.of(NodeAllocation.newBuilder().setNode("n1")
        .setCpus(1).setMemMb(100).build())));
    s = StateMachine.apply(s, new Command.JobEnded(1, 2000, 0, "n1"));
    assertThat(s.job(1).orElseThrow().getInfo().getEndTime()).isEqualTo(2000);
    assertThat(idle(s, 2599)).isEmpty();
    assertThat(idle(s, 2600)).hasSize(1);
    s = StateMachine.apply(s, new Command.PurgeJob(1)); // MinJobAge: the job record goes, its end stays
    assertThat(s.job(1)).isEmpty();
    assertThat(s.reservations().named("r").orElseThrow().getLastJobEnd()).isEqualTo(2000);
    assertThat(idle(s, 2599)).isEmpty();
    assertThat(idle(s, 2600)).containsExactly(new Command.DeleteReservation("r", 2600));
  }
}
