package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ResvPeriod;
import org.junit.jupiter.api.Test;

/**
 * Reservation periods for accounting (Slurm's resv table rows): created, replaced before they
 * begin, ended and reopened when changed while they last, ended or removed when deleted.
 */
class ReservationRecordsTest {
  private static ReservationInfo maint(long start, long end, String... nodes) {
    return ReservationInfo.newBuilder().setName("maint").setStartTime(start).setEndTime(end)
        .addAllNodeNames(List.of(nodes)).setCoreCnt(8 * nodes.length).addFlags("MAINT").addFlags("SPEC_NODES")
        .build();
  }

  private static List<ResvPeriod> periods(ClusterState s) {
    return s.outbox().events().values().stream().filter(AcctEvent::hasReservation).map(AcctEvent::getReservation)
        .toList();
  }

  private static ResvPeriod period(long start, long end, String nodes, int cpus, boolean deleted) {
    return ResvPeriod.newBuilder().setName("maint").setTimeStart(start).setTimeEnd(end).setNodes(nodes).setCpus(cpus)
        .addFlags("MAINT").addFlags("SPEC_NODES").setDeleted(deleted).build();
  }

  private static ResvPeriod close(long at, long end) {
    return ResvPeriod.newBuilder().setName("maint").setAt(at).setTimeEnd(end).build();
  }

  @Test
  void aReservationMovedBeforeItBeginsIsReplacedAndOneDeletedWhileItLastsEnds() {
    ClusterState s = TestStates.cluster(4, 8, 4000);
    s = StateMachine.apply(s, new Command.CreateReservation(maint(2000, 2180, "n4"), 1000));
    s = StateMachine.apply(s, new Command.UpdateReservation(maint(2100, 2280, "n4"), 1500)); // moved
    s = StateMachine.apply(s, new Command.UpdateReservation(maint(2100, 2400, "n4"), 2200)); // longer
    s = StateMachine.apply(s, new Command.UpdateReservation(maint(2100, 2400, "n3", "n4"), 2300)); // grown
    s = StateMachine.apply(s, new Command.DeleteReservation("maint", 2350));
    assertThat(periods(s)).containsExactly(
        period(2000, 2180, "n4", 8, false),
        period(2000, 2180, "n4", 8, true), // the first period goes: it never began
        period(2100, 2280, "n4", 8, false),
        close(2200, 2400), // begun, only its end moved: the open period's end
        close(2300, 2300), // changed while it lasts: ends now ...
        period(2300, 2400, "n[3-4]", 16, false), // ... and another period begins
        close(2350, 2350)); // deleted: the open period ends then
  }

  @Test
  void aReservationDeletedBeforeItBeginsIsRemovedAndUnchangedOnesMakeNoEvent() {
    ClusterState s = TestStates.cluster(4, 8, 4000);
    s = StateMachine.apply(s, new Command.CreateReservation(maint(2000, 2180, "n4"), 1000));
    s = StateMachine.apply(s, new Command.UpdateReservation(maint(2000, 2180, "n4"), 1100));
    s = StateMachine.apply(s, new Command.DeleteReservation("maint", 1200));
    assertThat(periods(s)).containsExactly(period(2000, 2180, "n4", 8, false), period(2000, 2180, "n4", 8, true));
  }

  @Test
  void aRecurringReservationRolledOnAtItsEndKeepsItsPastPeriodWhole() {
    ClusterState s = TestStates.cluster(4, 8, 4000);
    s = StateMachine.apply(s, new Command.CreateReservation(maint(2000, 2180, "n4"), 1000));
    s = StateMachine.apply(s, new Command.UpdateReservation(maint(2000 + 86400, 2180 + 86400, "n4"), 2180));
    s = StateMachine.apply(s, new Command.DeleteReservation("maint", 2180 + 86400)); // removed at its end
    assertThat(periods(s)).containsExactly(period(2000, 2180, "n4", 8, false),
        period(2000 + 86400, 2180 + 86400, "n4", 8, false));
  }
}
