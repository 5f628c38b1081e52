package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.ReservationInfo;
import org.junit.jupiter.api.Test;

/** Reservations in the state: created, changed and removed by journaled commands, kept in snapshots. */
class ReservationStateTest {
  private static ReservationInfo resv(String name, long start) {
    return ReservationInfo.newBuilder().setName(name).setStartTime(start).setEndTime(start + 3600)
        .addNodeNames("n1").setCoreCnt(8).addUsers("alice").addFlags("DAILY").build();
  }

  @Test
  void commandsSurviveTheJournalAndRebuildTheSameState() throws Exception {
    List<Command> cmds = List.of(
        new Command.CreateReservation(resv("a", 1000), 900),
        new Command.CreateReservation(resv("b", 2000), 901),
        new Command.UpdateReservation(resv("a", 1000 + 86400), 902),
        new Command.DeleteReservation("b", 903));
    ClusterState live = TestStates.cluster(1, 8, 4000);
    ClusterState replayed = live;
    for (Command c : cmds) {
      live = StateMachine.apply(live, c);
      replayed = StateMachine.apply(replayed, CommandCodec.decode(CommandCodec.encode(c)));
    }
    assertThat(replayed.reservations()).isEqualTo(live.reservations());
    assertThat(live.reservations().all()).containsExactly(resv("a", 1000 + 86400));
    assertThat(live.reservations().created()).isEqualTo(2); // the next generated name is USER_3
  }

  @Test
  void aSnapshotKeepsReservationsInOrderAndTheirCount() throws Exception {
    ClusterState s = TestStates.cluster(1, 8, 4000);
    s = StateMachine.apply(s, new Command.CreateReservation(resv("z", 1000), 900));
    s = StateMachine.apply(s, new Command.CreateReservation(resv("a", 5000), 901));
    ClusterState back = SnapshotCodec.decode(SnapshotCodec.encode(s, 7));
    assertThat(back.reservations()).isEqualTo(s.reservations());
    assertThat(back.reservations().all()).extracting(ReservationInfo::getName).containsExactly("z", "a");
  }

  @Test
  void reloadingTheConfigurationKeepsReservations() {
    ClusterState s = StateMachine.apply(TestStates.cluster(1, 8, 4000),
        new Command.CreateReservation(resv("a", 1000), 900));
    s = StateMachine.apply(s, new Command.LoadConfig(s.nodesInOrder(), s.partitions(), 950));
    assertThat(s.reservations().named("a")).isPresent();
  }
}
