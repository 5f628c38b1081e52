package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class TcpChannelTest {
  @TempDir Path dir;

  @Test
  void aBurstOfCallsSharesAFewConnections() throws Exception {
    // A server that takes four connections at most: a burst that opened one per call would be
    // turned away in part.
    try (ServerFixture f = new ServerFixture(dir, c -> c.withMaxConnections(4));
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      TcpChannel channel = new TcpChannel("127.0.0.1", f.port(), "slurmctld", f.nodeCredentials,
          Duration.ofSeconds(5), Duration.ofSeconds(30));
      List<Future<Response>> replies = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        replies.add(pool.submit(() -> channel.call(ServerFixture.PING)));
      }
      for (Future<Response> reply : replies) {
        assertThat(reply.get().getPing().getHost()).isEqualTo(RecordingHandler.HOST);
      }
    }
  }

  @Test
  void aCallDoesNotWaitLongBehindSlowOnes() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch slowArrived = new CountDownLatch(4);
    ClusterKey key = ClusterKey.random();
    Credentials server = new Credentials(key, "slurmctld", Clock.systemUTC());
    // The first four calls hang in the handler until released; later ones are answered at once.
    RequestHandler handler = (peer, request) -> {
      if (slowArrived.getCount() > 0) {
        slowArrived.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Response.newBuilder().setPing(PingReply.newBuilder().setHost("fast")).build();
    };
    Credentials node = new Credentials(key, "node1", Clock.systemUTC());
    try (RpcServer rpc = RpcServer.start(RpcServerConfig.defaults("127.0.0.1", 0, dir.resolve("s.sock")),
        server, handler); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      TcpChannel channel = new TcpChannel("127.0.0.1", rpc.tcpPort(), "slurmctld", node, Duration.ofSeconds(30),
          Duration.ofMillis(100));
      List<Future<Response>> slow = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        slow.add(pool.submit(() -> channel.call(ServerFixture.PING)));
      }
      assertThat(slowArrived.await(10, TimeUnit.SECONDS)).isTrue();
      // Every shared connection is busy: this call goes on a connection of its own.
      assertThat(channel.call(ServerFixture.PING).getPing().getHost()).isEqualTo("fast");
      assertThat(slow).noneMatch(Future::isDone);
      release.countDown();
      for (Future<Response> reply : slow) {
        assertThat(reply.get().getPing().getHost()).isEqualTo("fast");
      }
    }
  }
}
