package org.corral.e2e;

import java.time.Clock;
import java.time.Duration;
import org.corral.protocol.TransportException;
import org.corral.protocol.UserChannel;
import org.corral.protocol.auth.MungeAuth;
import org.corral.protocol.auth.MungeProgram;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.UserDirectory;

/**
 * Run on a host of a namespaced cluster (MultiHostTest): sends the controller a valid, a forged,
 * an expired, a replayed and a re-bound MUNGE credential made by that host's munged, and prints
 * one line per case: {@code CASE accepted} or {@code CASE refused: MESSAGE}.
 */
public final class CredentialProbe {
  private static final Request PING =
      Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();
  private static final int PING_TYPE = Request.BodyCase.PING.getNumber();

  private CredentialProbe() {}

  public static void main(String[] args) throws Exception {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    MungeAuth auth = auth(300);
    UserChannel channel = new UserChannel(host, port, "slurmctld", auth.client(uid -> uid == 0),
        Duration.ofSeconds(30));
    report("valid", () -> channel.call(PING));
    Envelope forged = Envelope.newBuilder().setType(PING_TYPE).setBody(PING.toByteString())
        .setMunge("MUNGE:AwQFAAAWv6XO29HDb7g0ycCjvK9wuRtSXWEuqfxR6PHQfpH+ZKdY5owFitXm8cwm1:")
        .build();
    report("forged", () -> parse(channel.send("forged", forged)));
    Envelope expiring = auth(1).seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    Thread.sleep(2100); // past the credential's TTL of 1 s
    report("expired", () -> parse(channel.send("expired", expiring)));
    Envelope once = auth.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    report("first-use", () -> parse(channel.send("first-use", once)));
    report("replayed", () -> parse(channel.send("replayed", once)));
    Request other = Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build();
    Envelope moved = auth.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope().toBuilder()
        .setType(other.getBodyCase().getNumber()).setBody(other.toByteString()).build();
    report("rebound", () -> parse(channel.send("rebound", moved)));
    report("still-serving", () -> channel.call(PING));
  }

  private static MungeAuth auth(int ttlS) {
    return new MungeAuth(new MungeProgram(MungeProgram.socketFrom(null)), UserDirectory.system(),
        Clock.systemUTC(), Duration.ofSeconds(ttlS), null);
  }

  private interface Call {
    Response call() throws Exception;
  }

  private static Response parse(Envelope reply) throws Exception {
    return Response.parseFrom(reply.getBody());
  }

  private static void report(String name, Call call) {
    try {
      Response r = call.call();
      System.out.println(r.getErrorCode() == 0 ? name + " accepted"
          : name + " refused: " + r.getErrorMessage());
    } catch (TransportException e) {
      System.out.println(name + " refused: " + e.getMessage());
    } catch (Exception e) {
      System.out.println(name + " failed: " + e);
    }
    System.out.flush();
  }
}
