package org.corral.protocol;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Client round trips: connect, send, receive, each within a timeout. */
final class RpcCall {
  /** Replies come from a trusted daemon and may be large (a long queue), but not unbounded. */
  static final int MAX_RESPONSE_BYTES = 1 << 30;

  private RpcCall() {}

  /** The message type of a request: its body's field number. */
  static int typeOf(Request request) {
    if (request.getBodyCase() == Request.BodyCase.BODY_NOT_SET) {
      throw new IllegalArgumentException("a request needs a body");
    }
    return request.getBodyCase().getNumber();
  }

  static Envelope plainEnvelope(Request request) {
    return Envelope.newBuilder().setType(typeOf(request)).setBody(request.toByteString()).build();
  }

  /** Sends {@code request} to {@code address} ({@code target} names it in messages) on a connection of its own. */
  static Envelope exchange(ProtocolFamily family, SocketAddress address, String target,
      Envelope request, Duration timeout) throws TransportException {
    FramedConnection connection = connect(family, address, target, timeout);
    try (connection) {
      return exchangeOn(connection, target, request, timeout);
    } catch (TransportException e) {
      throw e;
    } catch (IOException e) { // closing
      throw new TransportException(SlurmError.CONNECTION_ERROR, "connection to " + target + " failed: " + e.getMessage(), e);
    }
  }

  /** A new connection to {@code address}, made within the timeout. */
  static FramedConnection connect(ProtocolFamily family, SocketAddress address, String target,
      Duration timeout) throws TransportException {
    SocketChannel channel;
    try {
      channel = SocketChannel.open(family);
    } catch (IOException e) {
      throw new TransportException(SlurmError.CONNECTION_ERROR,
          "cannot open a socket to " + target + ": " + e.getMessage(), e);
    }
    Deadline deadline = Deadline.after(timeout, channel);
    try (deadline) {
      connect(channel, family, address, target, deadline, timeout);
    } catch (TransportException e) {
      closeQuietly(channel);
      throw e;
    }
    return new FramedConnection(channel);
  }

  /** Sends a frame that has no reply (a hello) on an open connection, within the timeout. */
  static void sendOn(FramedConnection connection, String target, Envelope frame,
      Duration timeout) throws TransportException {
    Deadline deadline = Deadline.after(timeout, connection.channel());
    try (deadline) {
      connection.write(frame);
    } catch (IOException e) {
      throw failure(deadline, e, target, timeout, "connection to " + target + " failed");
    }
  }

  /** One round trip on an open connection: the request out, its reply back, within the timeout. */
  static Envelope exchangeOn(FramedConnection connection, String target, Envelope request,
      Duration timeout) throws TransportException {
    Deadline deadline = Deadline.after(timeout, connection.channel());
    try (deadline) {
      try {
        connection.write(request);
      } catch (IOException e) {
        Envelope refusal = refusalBefore(connection);
        if (refusal != null) {
          return refusal;
        }
        throw e;
      }
      Envelope reply = connection.read(MAX_RESPONSE_BYTES);
      if (reply == null) {
        throw new TransportException(SlurmError.CONNECTION_ERROR,
            target + " closed the connection without answering", null);
      }
      return reply;
    } catch (ProtocolException e) {
      throw new TransportException(e.error(), "bad reply from " + target + ": " + e.getMessage(),
          e);
    } catch (TransportException e) {
      throw e;
    } catch (IOException e) {
      throw failure(deadline, e, target, timeout, "connection to " + target + " failed");
    }
  }

  /**
   * The answer a server sent before it closed on a request it would not read whole (one over
   * its size limit): our write failed, but its refusal may be waiting to be read.
   */
  private static Envelope refusalBefore(FramedConnection connection) {
    try {
      return connection.read(MAX_RESPONSE_BYTES);
    } catch (IOException | ProtocolException e) {
      return null;
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }

  /** Parses a reply's body and checks that its declared type matches. */
  static Response decode(Envelope reply, String target) throws TransportException {
    Response response = parse(reply.getBody(), target);
    if (response.getBodyCase().getNumber() != reply.getType()) {
      throw new TransportException(SlurmError.INVALID_MESSAGE, "reply from " + target
          + " declares type " + reply.getType() + " but carries "
          + response.getBodyCase().getNumber(), null);
    }
    return response;
  }

  static Response parse(ByteString body, String target) throws TransportException {
    try {
      return Response.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new TransportException(SlurmError.INVALID_MESSAGE,
          "reply from " + target + " is not a valid response: " + e.getMessage(), e);
    }
  }

  private static void connect(SocketChannel channel, ProtocolFamily family, SocketAddress address,
      String target, Deadline deadline, Duration timeout) throws TransportException {
    try {
      channel.connect(address);
      if (family != StandardProtocolFamily.UNIX) {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      }
    } catch (IOException e) {
      throw failure(deadline, e, target, timeout, "cannot connect to " + target);
    }
  }

  private static TransportException failure(Deadline deadline, IOException e, String target,
      Duration timeout, String what) {
    if (deadline.expired()) {
      return new TransportException(SlurmError.SOCKET_TIMEOUT,
          "no reply from " + target + " within " + timeout.toMillis() + " ms", e);
    }
    String reason = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    return new TransportException(SlurmError.CONNECTION_ERROR, what + ": " + reason, e);
  }
}
