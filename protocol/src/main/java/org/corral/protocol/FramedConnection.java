package org.corral.protocol;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.function.IntUnaryOperator;
import org.corral.protocol.msg.Envelope;

/** A socket channel exchanging frames, each read or write bounded by a deadline. */
final class FramedConnection implements AutoCloseable {
  private static final int BUFFER_BYTES = 16 * 1024;

  private final SocketChannel channel;
  private final InputStream in;
  private final OutputStream out;

  FramedConnection(SocketChannel channel) {
    this.channel = channel;
    this.in = new BufferedInputStream(Channels.newInputStream(channel), BUFFER_BYTES);
    this.out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES);
  }

  SocketChannel channel() {
    return channel;
  }

  InputStream input() {
    return in;
  }

  OutputStream output() {
    return out;
  }

  /**
   * The next {@code n} bytes (fewer at the end of the stream), left unread for what follows;
   * they must arrive within the timeout.
   */
  byte[] peek(int n, Duration timeout) throws IOException {
    Deadline deadline = Deadline.after(timeout, channel);
    try (deadline) {
      in.mark(n);
      byte[] first = in.readNBytes(n);
      in.reset();
      return first;
    } catch (IOException e) {
      throw timedOutOr(deadline, e, "reading a message", timeout);
    }
  }

  /** The next frame, or null at a clean end of stream; no time limit of its own. */
  Envelope read(int maxFrameBytes) throws IOException, ProtocolException {
    return FrameCodec.read(in, maxFrameBytes);
  }

  /** Writes and flushes one frame; no time limit of its own. */
  void write(Envelope envelope) throws IOException {
    FrameCodec.write(out, envelope);
  }

  /** The next frame, or null at a clean end of stream; must arrive whole within the timeout. */
  Envelope read(int maxFrameBytes, Duration timeout) throws IOException, ProtocolException {
    return read(maxFrameBytes, type -> maxFrameBytes, timeout);
  }

  /** As {@link #read(int, Duration)}, with a limit by the envelope's type (see FrameCodec). */
  Envelope read(int ceiling, IntUnaryOperator limitForType, Duration timeout)
      throws IOException, ProtocolException {
    Deadline deadline = Deadline.after(timeout, channel);
    try (deadline) {
      return FrameCodec.read(in, ceiling, limitForType);
    } catch (IOException e) {
      throw timedOutOr(deadline, e, "reading a message", timeout);
    }
  }

  void write(Envelope envelope, Duration timeout) throws IOException {
    Deadline deadline = Deadline.after(timeout, channel);
    try (deadline) {
      write(envelope);
    } catch (IOException e) {
      throw timedOutOr(deadline, e, "writing a message", timeout);
    }
  }

  /**
   * Ends our side and reads away what the peer is still sending, so that closing does not reset
   * a TCP connection before the peer has read our last (error) reply. Bounded in bytes and time;
   * what is read is discarded, never kept.
   */
  void finishAfterError(long maxBytes, Duration timeout) {
    Deadline deadline = Deadline.after(timeout, channel);
    try (deadline) {
      channel.shutdownOutput();
      byte[] sink = new byte[BUFFER_BYTES];
      long left = maxBytes;
      int n;
      while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) >= 0) {
        left -= n;
      }
    } catch (IOException ignored) {
      // The peer went away or the deadline closed the channel: nothing left to protect.
    }
  }

  /** Turns the error of an I/O step its deadline cut short into a clear timeout. */
  static IOException timedOutOr(Deadline deadline, IOException e, String what, Duration timeout) {
    if (deadline.expired()) {
      SocketTimeoutException timedOut = new SocketTimeoutException(
          "timed out after " + timeout.toMillis() + " ms " + what);
      timedOut.initCause(e);
      return timedOut;
    }
    return e;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
