package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.corral.common.SlurmError;
import org.corral.protocol.ServerFixture.Transport;
import org.corral.protocol.msg.Response;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Serving local users, listener lifecycle, limits, and what clients report when things fail. */
@Timeout(15)
class RpcServerTest {
  @TempDir Path dir;

  @Test
  void unixRoundTripIdentifiesTheLocalUserFromTheKernel() throws Exception {
    try (ServerFixture f = new ServerFixture(dir)) {
      Response reply = f.unixChannel().call(ServerFixture.PING);
      assertThat(reply.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      Peer peer = f.handler.lastPeer.get();
      assertThat(peer.uid()).isEqualTo(RpcServerAuthTest.currentUid());
      assertThat(peer.userName()).isEqualTo(System.getProperty("user.name"));
      assertThat(peer.gid()).isEqualTo(Files.getAttribute(Path.of("/proc/self"), "unix:gid"));
      assertThat(peer.isDaemon()).isFalse();
    }
  }

  @Test
  void unixSocketIsOpenToEveryLocalUserAndRemovedOnClose() throws Exception {
    ServerFixture f = new ServerFixture(dir);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.socket)))
        .isEqualTo("rw-rw-rw-");
    f.close();
    assertThat(f.socket).doesNotExist();
  }

  @Test
  void replacesAStaleSocketLeftByADeadServer() throws Exception {
    Path socket = dir.resolve("ctld.sock");
    try (var stale = java.nio.channels.ServerSocketChannel.open(
        java.net.StandardProtocolFamily.UNIX)) {
      stale.bind(java.net.UnixDomainSocketAddress.of(socket));
    }
    assertThat(socket).exists();
    try (ServerFixture f = new ServerFixture(dir)) {
      f.assertStillServes();
    }
  }

  @Test
  void refusesToReplaceALiveSocketOrAnOrdinaryFile() throws Exception {
    try (ServerFixture first = new ServerFixture(dir)) {
      assertThatThrownBy(() -> RpcServer.start(RpcServerConfig.unix(first.socket), null,
          first.handler)).hasMessageContaining("another server is listening");
      first.assertStillServes();
    }
    Path file = dir.resolve("important");
    Files.writeString(file, "data");
    assertThatThrownBy(() -> RpcServer.start(RpcServerConfig.unix(file), null,
        new RecordingHandler())).hasMessageContaining("not a socket");
    assertThat(file).hasContent("data");
  }

  @Test
  void reportsTheBoundPortWhenAskedForAnyFreeOne() throws Exception {
    try (ServerFixture f = new ServerFixture(dir)) {
      assertThat(f.port()).isBetween(1, 65535);
    }
    try (RpcServer unixOnly = RpcServer.start(RpcServerConfig.unix(dir.resolve("u.sock")), null,
        new RecordingHandler())) {
      assertThat(unixOnly.tcpPort()).isEqualTo(RpcServerConfig.NO_TCP);
    }
  }

  @Test
  void busyPortGivesAClearError() throws Exception {
    try (ServerFixture f = new ServerFixture(dir)) {
      assertThatThrownBy(() -> RpcServer.start(RpcServerConfig.tcp("127.0.0.1", f.port()),
          f.serverCredentials, f.handler))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("cannot listen on")
          .hasMessageContaining(String.valueOf(f.port()));
    }
  }

  @Test
  void tcpNeedsCredentials() {
    assertThatThrownBy(() -> RpcServer.start(RpcServerConfig.tcp("127.0.0.1", 0), null,
        new RecordingHandler())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void idleAndSlowConnectionsAreClosed() throws Exception {
    try (ServerFixture f = new ServerFixture(dir,
        c -> c.withIdleTimeout(Duration.ofMillis(300)))) {
      for (Transport t : Transport.values()) {
        try (RawConnection silent = f.raw(t); RawConnection slow = f.raw(t)) {
          slow.send(new byte[] {0, 0, 0, 50, 0, 1, 1});
          assertThat(silent.closedByServer()).as("silent %s client", t).isTrue();
          assertThat(slow.closedByServer()).as("slow %s client", t).isTrue();
        }
      }
      f.assertStillServes();
    }
  }

  @Test
  void connectionsBeyondTheCapAreClosedAndServedAgainOnceOthersLeave() throws Exception {
    try (ServerFixture f = new ServerFixture(dir, c -> c.withMaxConnections(2))) {
      RawConnection a = f.raw(Transport.UNIX);
      RawConnection b = f.raw(Transport.TCP);
      // Both answered, so both hold a slot.
      a.send(RpcCall.plainEnvelope(ServerFixture.PING)).receiveResponse();
      b.send(f.nodeCredentials.seal(16, ServerFixture.PING.toByteArray())).receiveResponse();
      try (RawConnection third = f.raw(Transport.UNIX)) {
        Response refusal = third.receiveResponse(); // told why, then closed
        assertThat(refusal.getErrorCode())
            .isEqualTo(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code());
        assertThat(refusal.getErrorMessage()).contains("2 connections open");
        assertThat(third.closedByServer()).isTrue();
      }
      assertThat(f.tcpChannel().call(ServerFixture.PING).getErrorCode()) // signed: a daemon trusts it
          .isEqualTo(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code());
      a.close();
      b.close();
      awaitServing(f);
    }
  }

  @Test
  void servesManyClientsAtOnce() throws Exception {
    try (ServerFixture f = new ServerFixture(dir);
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Response>> replies = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        RpcChannel channel = i % 2 == 0 ? f.tcpChannel() : f.unixChannel();
        replies.add(pool.submit((Callable<Response>) () -> channel.call(ServerFixture.PING)));
      }
      for (Future<Response> reply : replies) {
        assertThat(reply.get().getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      }
    }
  }

  @Test
  void aTcpChannelKeepsItsConnectionAndGoesOnWhenTheServerHungUpAnIdleOne() throws Exception {
    try (ServerFixture f = new ServerFixture(dir,
        c -> c.withIdleTimeout(Duration.ofMillis(300)).withMaxConnections(1))) {
      TcpChannel channel = f.tcpChannel();
      assertThat(channel.call(ServerFixture.PING).getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      // Its kept connection holds the server's only slot: a second client is turned away.
      TcpChannel second = f.tcpChannel();
      assertThat(second.call(ServerFixture.PING).getErrorCode())
          .isEqualTo(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code());
      assertThat(channel.call(ServerFixture.PING).getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      Thread.sleep(900); // the server closes the kept connection as idle
      assertThat(channel.call(ServerFixture.PING).getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      Thread.sleep(900); // idle again, closed again: the slot is free
      // the refused client's channel connects again and is served
      assertThat(second.call(ServerFixture.PING).getPing().getHost()).isEqualTo(RecordingHandler.HOST);
    }
  }

  @Test
  void refusedTcpConnectionSaysWhere() {
    int port = FreePorts.one();
    TcpChannel channel = new TcpChannel("127.0.0.1", port,
        new Credentials(ClusterKey.random(), "node1", Clock.systemUTC()), Duration.ofSeconds(2));
    assertThatThrownBy(() -> channel.call(ServerFixture.PING))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("cannot connect to 127.0.0.1:" + port)
        .hasMessageContaining("refused")
        .extracting(e -> ((TransportException) e).error())
        .isEqualTo(SlurmError.CONNECTION_ERROR);
  }

  @Test
  void missingUnixSocketSaysWhere() {
    Path socket = dir.resolve("nobody-listens.sock");
    assertThatThrownBy(() -> new UnixSocketChannel(socket).call(ServerFixture.PING))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("cannot connect to unix socket " + socket);
  }

  @Test
  void silentServerTimesOutTheClient() throws Exception {
    Path socket = dir.resolve("silent.sock");
    try (var silent = java.nio.channels.ServerSocketChannel.open(
        java.net.StandardProtocolFamily.UNIX)) {
      silent.bind(java.net.UnixDomainSocketAddress.of(socket));
      assertThatThrownBy(() -> new UnixSocketChannel(socket, Duration.ofMillis(300))
          .call(ServerFixture.PING))
          .isInstanceOf(TransportException.class)
          .hasMessageContaining("no reply from unix socket " + socket + " within 300 ms")
          .extracting(e -> ((TransportException) e).error())
          .isEqualTo(SlurmError.SOCKET_TIMEOUT);
    }
  }

  /** Slots come back when the server notices the closed connections; allow it a moment. */
  private static void awaitServing(ServerFixture f) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      try {
        f.assertStillServes();
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(20);
      }
    }
  }
}
