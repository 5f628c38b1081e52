package org.corral.protocol;

import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Answers one authenticated request; called on the connection's own (virtual) thread. */
public interface RequestHandler {
  Response handle(Peer peer, Request request);
}
