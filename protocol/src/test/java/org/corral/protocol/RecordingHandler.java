package org.corral.protocol;

import java.util.concurrent.atomic.AtomicReference;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Answers pings, fails on config requests, and remembers who asked last. */
final class RecordingHandler implements RequestHandler {
  static final String HOST = "test-server";

  final AtomicReference<Peer> lastPeer = new AtomicReference<>();

  @Override
  public Response handle(Peer peer, Request request) {
    lastPeer.set(peer);
    return switch (request.getBodyCase()) {
      case PING -> Response.newBuilder().setPing(PingReply.newBuilder().setHost(HOST)).build();
      case CONFIG -> throw new IllegalStateException("handler bug");
      default -> Responses.error(SlurmError.INVALID_MESSAGE, "not served here");
    };
  }
}
