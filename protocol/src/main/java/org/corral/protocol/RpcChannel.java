package org.corral.protocol;

import java.io.IOException;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Sends one request to a daemon and waits for its response. */
public interface RpcChannel {
  Response call(Request request) throws IOException;
}
