package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConnectionLedgerTest {
  private final AtomicLong nanos = new AtomicLong();
  private final PeerLimits limits = new PeerLimits(3, 2, 2, 4, Duration.ofSeconds(1),
      Duration.ofSeconds(60));

  private ConnectionLedger ledger(int max) {
    return new ConnectionLedger(max, limits, nanos::get);
  }

  @Test
  void oneUserGetsItsShareAndOthersTheirs() throws Exception {
    ConnectionLedger l = ledger(100);
    for (int i = 0; i < 3; i++) {
      l.admitUser(1001);
    }
    assertThatThrownBy(() -> l.admitUser(1001)).isInstanceOf(ConnectionLedger.Refused.class)
        .hasMessageContaining("too many connections from uid 1001 (3)");
    l.admitUser(1002);
    assertThat(l.openBy(ConnectionLedger.userKey(1001))).isEqualTo(3);
  }

  @Test
  void usersCannotTakeTheDaemonsReserve() throws Exception {
    ConnectionLedger l = ledger(10); // 4 of 10 reserved
    for (int uid = 2000; uid < 2006; uid++) {
      l.admitUser(uid);
    }
    assertThatThrownBy(() -> l.admitUser(3000)).isInstanceOf(ConnectionLedger.Refused.class)
        .hasMessageContaining("all the server gives users");
    for (int i = 0; i < 4; i++) {
      l.admitTrusted("uid 0");
    }
    assertThatThrownBy(() -> l.admitTrusted("uid 0")).isInstanceOf(ConnectionLedger.Refused.class);
  }

  @Test
  void unauthenticatedConnectionsCountByAddressUntilTheyAuthenticate() throws Exception {
    ConnectionLedger l = ledger(100);
    ConnectionLedger.Ticket a = l.admitUnauthenticated("10.0.0.1");
    ConnectionLedger.Ticket b = l.admitUnauthenticated("10.0.0.1");
    l.admitUnauthenticated("10.0.0.2");
    l.becomeDaemon(a);
    assertThat(a.kind()).isEqualTo(ConnectionLedger.Kind.DAEMON);
    l.becomeUser(b, 1001);
    assertThat(l.openBy(ConnectionLedger.userKey(1001))).isEqualTo(1);
    l.admitUnauthenticated("10.0.0.1"); // both moved on: the address has room again
    l.release(a);
    l.release(a); // twice is once
    assertThat(l.open()).isEqualTo(3);
  }

  @Test
  void aNewUnauthenticatedConnectionFromAFullAddressClosesTheOldest() throws Exception {
    ConnectionLedger l = ledger(100);
    AtomicLong evicted = new AtomicLong();
    ConnectionLedger.Ticket first = l.admitUnauthenticated("10.0.0.1", () -> evicted.set(1));
    ConnectionLedger.Ticket second = l.admitUnauthenticated("10.0.0.1", () -> evicted.set(2));
    ConnectionLedger.Ticket third = l.admitUnauthenticated("10.0.0.1", () -> evicted.set(3));
    assertThat(evicted.get()).isEqualTo(1);
    assertThat(l.openBy("address 10.0.0.1")).isEqualTo(2);
    l.release(first); // its own thread's release afterwards changes nothing
    assertThat(l.open()).isEqualTo(2);
    l.becomeDaemon(second); // a daemon is never evicted
    l.admitUnauthenticated("10.0.0.1");
    l.admitUnauthenticated("10.0.0.1");
    assertThat(evicted.get()).isEqualTo(3);
    assertThat(second.kind()).isEqualTo(ConnectionLedger.Kind.DAEMON);
    assertThat(l.open()).isEqualTo(3);
  }

  @Test
  void aUserOverItsShareIsRefusedWhenItAuthenticates() throws Exception {
    ConnectionLedger l = ledger(100);
    for (int i = 0; i < 3; i++) {
      l.admitUser(1001);
    }
    ConnectionLedger.Ticket t = l.admitUnauthenticated("10.0.0.1");
    assertThatThrownBy(() -> l.becomeUser(t, 1001)).isInstanceOf(ConnectionLedger.Refused.class);
    l.release(t);
    assertThat(l.open()).isEqualTo(3);
  }

  @Test
  void aUsersRequestsBeyondItsInFlightShareWait() throws Exception {
    ConnectionLedger l = ledger(100);
    ConnectionLedger.Ticket t = l.admitUser(1001);
    ConnectionLedger.Permit first = l.startRequest(t);
    ConnectionLedger.Permit second = l.startRequest(t);
    CountDownLatch third = new CountDownLatch(1);
    Thread waiting = Thread.ofVirtual().start(() -> {
      try (ConnectionLedger.Permit p = l.startRequest(t)) {
        third.countDown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertThat(third.await(200, TimeUnit.MILLISECONDS)).isFalse();
    // another user is not held up
    try (ConnectionLedger.Permit other = l.startRequest(l.admitUser(1002))) {
      assertThat(other).isNotNull();
    }
    first.close();
    assertThat(third.await(5, TimeUnit.SECONDS)).isTrue();
    second.close();
    waiting.join();
    // daemons have no such limit
    ConnectionLedger.Ticket daemon = l.admitTrusted("uid 0");
    for (int i = 0; i < 10; i++) {
      l.startRequest(daemon);
    }
  }

  @Test
  void aLimitThatBitesIsLoggedOncePerPeerAndInterval() {
    LimitLog log = new LimitLog(Duration.ofSeconds(60), nanos::get);
    assertThat(log.refused("uid 1001", "connections per user", "x")).isNotNull();
    for (int i = 0; i < 999; i++) {
      assertThat(log.refused("uid 1001", "connections per user", "x")).isNull();
    }
    assertThat(log.refused("uid 1002", "connections per user", "x")).isNotNull();
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(log.refused("uid 1001", "connections per user", "x"))
        .contains("999 more times since the last report");
  }

  @Test
  void parametersSetTheLimitsAndABadValueIsAnError() {
    PeerLimits p = PeerLimits.DEFAULT.withParameters(
        "enable_configless,max_conns_per_user=10,max_rpcs_per_user=4,hello_timeout=3");
    assertThat(p.connectionsPerPeer()).isEqualTo(10);
    assertThat(p.inFlightPerPeer()).isEqualTo(4);
    assertThat(p.helloTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThatThrownBy(() -> PeerLimits.DEFAULT.withParameters("max_conns_per_user=0"))
        .hasMessageContaining("max_conns_per_user=0");
  }
}
