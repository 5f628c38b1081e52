package org.corral.restd;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.OnBehalfRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * slurmrestd's way to a daemon (the controller, or slurmdbd): its RPCs over signed TCP
 * (credential sender "slurmrestd"), each wrapped in an OnBehalfRequest naming the REST user, so
 * the daemon applies that user's permissions. Several channels share the load of concurrent
 * clients (each keeps a couple of connections open).
 */
final class OnBehalfClient {
  private final List<RpcChannel> channels;
  private final AtomicInteger next = new AtomicInteger();

  OnBehalfClient(List<RpcChannel> channels) {
    if (channels.isEmpty()) {
      throw new IllegalArgumentException("no channel to the daemon");
    }
    this.channels = List.copyOf(channels);
  }

  Response call(Identity who, Request request) throws IOException {
    OnBehalfRequest.Builder b = OnBehalfRequest.newBuilder().setRequest(request);
    if (who.byUid()) {
      b.setUid(who.uid());
    } else {
      b.setUserName(who.userName());
    }
    RpcChannel ch = channels.get(Math.floorMod(next.getAndIncrement(), channels.size()));
    return ch.call(Request.newBuilder().setOnBehalf(b).build());
  }
}
