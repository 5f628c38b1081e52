package org.corral.restd;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.OnBehalfRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * slurmrestd's way to a daemon (the controller, or slurmdbd): its RPCs over signed TCP
 * (credential sender "slurmrestd"), each wrapped in an OnBehalfRequest naming the REST user, so
 * the daemon applies that user's permissions. A pool of channels, each lent to one caller at a
 * time: a channel keeps its connection between calls, so under any load no call opens a new
 * connection while one is open, and at most as many requests as channels are in the daemon at
 * once (more REST clients wait here, not in the daemon).
 */
final class OnBehalfClient {
  private final BlockingQueue<RpcChannel> free;

  OnBehalfClient(List<RpcChannel> channels) {
    if (channels.isEmpty()) {
      throw new IllegalArgumentException("no channel to the daemon");
    }
    this.free = new ArrayBlockingQueue<>(channels.size(), false, channels);
  }

  Response call(Identity who, Request request) throws IOException {
    OnBehalfRequest.Builder b = OnBehalfRequest.newBuilder().setRequest(request);
    if (who.byUid()) {
      b.setUid(who.uid());
    } else {
      b.setUserName(who.userName());
    }
    Request wrapped = Request.newBuilder().setOnBehalf(b).build();
    RpcChannel ch;
    try {
      ch = free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a channel");
    }
    try {
      return ch.call(wrapped);
    } finally {
      free.add(ch);
    }
  }
}
