package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** A server on a free TCP port and a Unix socket, with a node's credentials to call it. */
final class ServerFixture implements AutoCloseable {
  static final Request PING = Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();

  final ClusterKey key = ClusterKey.random();
  final Credentials serverCredentials = new Credentials(key, "slurmctld", Clock.systemUTC());
  final Credentials nodeCredentials = new Credentials(key, "node1", Clock.systemUTC());
  final RecordingHandler handler = new RecordingHandler();
  final Path socket;
  final RpcServer server;

  ServerFixture(Path dir) throws IOException {
    this(dir, c -> c);
  }

  ServerFixture(Path dir, UnaryOperator<RpcServerConfig> tune) throws IOException {
    this.socket = dir.resolve("ctld.sock");
    this.server = RpcServer.start(tune.apply(RpcServerConfig.defaults("127.0.0.1", 0, socket)),
        serverCredentials, handler);
  }

  int port() {
    return server.tcpPort();
  }

  TcpChannel tcpChannel() {
    return new TcpChannel("127.0.0.1", port(), "slurmctld", nodeCredentials, Duration.ofSeconds(5));
  }

  UnixSocketChannel unixChannel() {
    return new UnixSocketChannel(socket, Duration.ofSeconds(5));
  }

  RawConnection raw(Transport transport) throws IOException {
    return transport == Transport.TCP ? RawConnection.tcp(port()) : RawConnection.unix(socket);
  }

  /** A well-formed request on a new connection is still answered, on both listeners. */
  void assertStillServes() throws IOException {
    Response overTcp = tcpChannel().call(PING);
    assertThat(overTcp.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
    Response overUnix = unixChannel().call(PING);
    assertThat(overUnix.getPing().getHost()).isEqualTo(RecordingHandler.HOST);
  }

  @Override
  public void close() {
    server.close();
  }

  enum Transport { TCP, UNIX }
}
