package org.corral.e2e;

import java.nio.file.Path;
import java.time.Duration;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.SackClient;
import org.corral.protocol.SackSocket;
import org.corral.protocol.TransportException;
import org.corral.protocol.UserChannel;
import org.corral.protocol.msg.Envelope;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * Run on the login host of a namespaced auth/slurm cluster (SackdMultiHostTest): gets
 * credentials from the host's sackd and sends the controller a valid, a forged, an expired, a
 * replayed, a re-bound and a misaddressed one, printing one line per case: {@code CASE accepted}
 * or {@code CASE refused: MESSAGE}. Args: controller address, port, seconds past the TTL.
 */
public final class SackProbe {
  private static final Request PING =
      Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build();
  private static final int PING_TYPE = Request.BodyCase.PING.getNumber();

  private SackProbe() {}

  public static void main(String[] args) throws Exception {
    SlurmConfig cfg = SlurmConfig.load(Path.of(System.getenv("SLURM_CONF")));
    SackClient sack = new SackClient(SackSocket.of(cfg));
    UserChannel channel = new UserChannel(args[0], Integer.parseInt(args[1]), "slurmctld", sack,
        Duration.ofSeconds(30));
    report("valid", () -> channel.call(PING));
    Envelope mine = sack.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    Envelope forged = mine.toBuilder().setSack(mine.getSack().toBuilder().setUid(0).setGid(0))
        .build();
    report("forged", () -> parse(channel.send("forged", forged)));
    Envelope expiring = sack.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    Thread.sleep(Long.parseLong(args[2]) * 1000); // past the cluster's TTL (AuthInfo=ttl=)
    report("expired", () -> parse(channel.send("expired", expiring)));
    Envelope once = sack.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope();
    report("first-use", () -> parse(channel.send("first-use", once)));
    report("replayed", () -> parse(channel.send("replayed", once)));
    Request other = Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build();
    Envelope moved = sack.seal("slurmctld", PING_TYPE, PING.toByteArray()).envelope().toBuilder()
        .setType(other.getBodyCase().getNumber()).setBody(other.toByteString()).build();
    report("rebound", () -> parse(channel.send("rebound", moved)));
    Envelope forDbd = sack.seal("slurmdbd", PING_TYPE, PING.toByteArray()).envelope();
    report("misaddressed", () -> parse(channel.send("misaddressed", forDbd)));
    report("still-serving", () -> channel.call(PING));
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
