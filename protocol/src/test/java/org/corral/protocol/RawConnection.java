package org.corral.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Response;

/** A test client that can send anything, well-formed or not, and read what comes back. */
final class RawConnection implements AutoCloseable {
  private final SocketChannel channel;
  private final InputStream in;
  private final OutputStream out;

  private RawConnection(SocketChannel channel) {
    this.channel = channel;
    this.in = Channels.newInputStream(channel);
    this.out = Channels.newOutputStream(channel);
  }

  static RawConnection tcp(int port) throws IOException {
    return new RawConnection(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
  }

  static RawConnection unix(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    ch.connect(UnixDomainSocketAddress.of(socket));
    return new RawConnection(ch);
  }

  RawConnection send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  RawConnection send(Envelope e) throws IOException {
    return send(FrameCodecTest.frameOf(e));
  }

  /** Signals that we will send nothing more. */
  RawConnection endOutput() throws IOException {
    channel.shutdownOutput();
    return this;
  }

  Envelope receive() throws IOException, ProtocolException {
    return FrameCodec.read(in, 1 << 20);
  }

  /** The body of the next reply as a Response. */
  Response receiveResponse() throws IOException, ProtocolException {
    Envelope e = receive();
    if (e == null) {
      throw new IOException("server closed the connection without a reply");
    }
    return Response.parseFrom(e.getBody());
  }

  /** Whether the server has closed its side (end of stream, or a reset). */
  boolean closedByServer() {
    try {
      return in.read() < 0;
    } catch (IOException reset) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
