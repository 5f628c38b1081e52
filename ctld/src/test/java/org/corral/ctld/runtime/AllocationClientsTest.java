package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;

class AllocationClientsTest {
  private final Map<Long, AllocationClients.ProcessView> running = new HashMap<>();
  private final AllocationClients clients = new AllocationClients(pid -> Optional.ofNullable(running.get(pid)));
  private final Peer alice = new Peer(1000, 1000, "alice", null);

  private static JobSpec spec(int pid, long start) {
    return JobSpec.newBuilder().setInteractive(true).setAllocPid(pid).setAllocPidStartMs(start).build();
  }

  @Test
  void aVisibleClientOfTheCallerIsWatchedUntilItIsGone() {
    running.put(42L, new AllocationClients.ProcessView(5000, "alice"));
    JobSpec watched = clients.verified(spec(42, 5000), alice);
    assertThat(watched.getAllocPid()).isEqualTo(42);
    assertThat(clients.gone(watched)).isFalse();

    running.put(42L, new AllocationClients.ProcessView(9000, "alice")); // the pid was reused
    assertThat(clients.gone(watched)).isTrue();
    running.remove(42L);
    assertThat(clients.gone(watched)).isTrue();
  }

  @Test
  void aClientThatCannotBeSeenOrIsSomeoneElsesIsNotWatched() {
    assertThat(clients.verified(spec(42, 5000), alice).getAllocPid()).isZero(); // another pid namespace
    running.put(43L, new AllocationClients.ProcessView(5000, "bob"));
    assertThat(clients.verified(spec(43, 5000), alice).getAllocPid()).isZero();
    running.put(44L, new AllocationClients.ProcessView(7000, "alice"));
    assertThat(clients.verified(spec(44, 5000), alice).getAllocPid()).isZero(); // wrong start time
    assertThat(clients.gone(JobSpec.newBuilder().setInteractive(true).build())).isFalse(); // --no-shell
  }

  @Test
  void theRealProcessTableSeesThisProcess() {
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().orElseThrow().toEpochMilli();
    Peer me = new Peer(0, 0, "root", null);
    JobSpec watched = AllocationClients.system().verified(spec((int) self.pid(), start), me);
    assertThat(watched.getAllocPid()).isEqualTo((int) self.pid());
    assertThat(AllocationClients.system().gone(watched)).isFalse();
  }
}
