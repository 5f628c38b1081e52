package org.corral.protocol;

import java.nio.file.Path;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** Run in a child JVM as another user: pings the server on the socket given as argument. */
public final class PeerIdentityClientMain {
  private PeerIdentityClientMain() {}

  public static void main(String[] args) throws Exception {
    Response reply = new UnixSocketChannel(Path.of(args[0])).call(
        Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
    System.out.println("reply from " + reply.getPing().getHost());
  }
}
