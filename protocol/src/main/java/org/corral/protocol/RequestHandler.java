package org.corral.protocol;

import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Answers one authenticated request; called on the connection's own (virtual) thread. */
public interface RequestHandler {
  Response handle(Peer peer, Request request);

  /**
   * As {@link #handle(Peer, Request)}, knowing the connection's peer address ("unix socket
   * client" for a local one), for handlers that record where a request came from.
   */
  default Response handle(Peer peer, Request request, String remote) {
    return handle(peer, request);
  }
}
