package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.corral.protocol.msg.Response;
import org.corral.testkit.ConnectionFlood;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connection floods by real unprivileged users (in processes of their own): each user keeps its
 * share, the rest is refused, and everyone else is still served.
 */
@Timeout(60)
class RpcServerPeerLimitsTest {
  private Path dir;

  @BeforeEach
  void traversableDir() throws IOException {
    dir = Files.createTempDirectory(Path.of("/tmp"), "corral-limits-");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void cleanUp() throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void aUserHoldingHundredsOfConnectionsKeepsItsShareAndOthersAreServed() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create users and switch to them");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (ServerFixture f = new ServerFixture(dir, c -> c.withMaxConnections(400)
        .withPeers(PeerLimits.DEFAULT.withConnectionsPerPeer(40)))) {
      String target = "unix:" + f.socket;
      try (ConnectionFlood flood = ConnectionFlood.start(alice, target, 600, false, 30)) {
        assertThat(flood.opened()).isGreaterThan(40);
        try (ConnectionFlood other = ConnectionFlood.start(bob, target, 20, false, 30)) {
          f.assertStillServes();
          assertThat(other.finish().stillOpen()).as("bob's connections").isEqualTo(20);
        }
        assertThat(flood.finish().stillOpen()).as("alice's connections").isEqualTo(40);
      }
      f.assertStillServes();
    }
  }

  @Test
  void slowLorisTcpConnectionsAreClosedAtTheHelloTimeoutWhileDaemonsAreServed() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, c -> c.withIdleTimeout(Duration.ofSeconds(30))
        .withPeers(PeerLimits.DEFAULT.withHelloTimeout(Duration.ofMillis(500))))) {
      try (ConnectionFlood flood = ConnectionFlood.start(null, "tcp:127.0.0.1:" + f.port(), 100,
          true, 3)) {
        assertThat(flood.opened()).isEqualTo(100);
        f.assertStillServes();
        Thread.sleep(2000); // the attack goes on, a byte a second, past the hello timeout
        assertThat(flood.finish().stillOpen()).isZero();
      }
      // an authenticated daemon's connection outlives the hello timeout
      TcpChannel daemon = f.tcpChannel();
      daemon.call(ServerFixture.PING);
      Thread.sleep(800);
      assertThat(daemon.call(ServerFixture.PING).getPing().getHost())
          .isEqualTo(RecordingHandler.HOST);
    }
  }

  @Test
  void anAddressFloodingUnauthenticatedConnectionsDoesNotLockItsDaemonsOut() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, c -> c.withPeers(PeerLimits.DEFAULT
        .withUnauthenticatedPerAddress(10).withHelloTimeout(Duration.ofSeconds(20))))) {
      try (ConnectionFlood flood = ConnectionFlood.start(null, "tcp:127.0.0.1:" + f.port(), 200,
          false, 30)) {
        // the daemon comes from the same address as the flood
        Response r = f.tcpChannel().call(ServerFixture.PING);
        assertThat(r.getErrorCode()).isZero();
        assertThat(flood.finish().stillOpen()).isLessThanOrEqualTo(10);
      }
    }
  }
}
