package org.corral.ctld.ha;

import java.io.IOException;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.corral.common.SlurmError;
import org.corral.ctld.runtime.ControllerSeat;
import org.corral.protocol.Peer;
import org.corral.protocol.RequestHandler;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * What a controller that does not lead answers: pings (so scontrol ping shows it UP, and which
 * controller leads), scontrol takeover from an administrator, and Slurm's "in standby mode" error
 * to everything else, which clients take as "try the next controller".
 */
final class StandbyService implements RequestHandler {
  /** Asks the group to make this controller its leader. */
  interface Takeover {
    void run() throws IOException;
  }

  private final ControllerSeat seat;
  private final RaftServer server;
  private final ControllerGroup group;
  private final int slurmUid;
  private final Takeover takeover;

  StandbyService(ControllerSeat seat, RaftServer server, ControllerGroup group, int slurmUid, Takeover takeover) {
    this.seat = seat;
    this.server = server;
    this.group = group;
    this.slurmUid = slurmUid;
    this.takeover = takeover;
  }

  @Override
  public Response handle(Peer peer, Request request) {
    return switch (request.getBodyCase()) {
      case PING -> Response.newBuilder().setPing(seat.ping(false).toBuilder().setLeaderHost(leader())).build();
      case TAKEOVER -> {
        if (peer.uid() != 0 && peer.uid() != slurmUid) {
          yield error(SlurmError.ACCESS_DENIED, "takeover refused for uid " + peer.uid());
        }
        try {
          takeover.run();
          yield Response.getDefaultInstance();
        } catch (IOException | RuntimeException e) {
          yield error(SlurmError.UNEXPECTED, "takeover failed: " + e.getMessage());
        }
      }
      default -> error(SlurmError.IN_STANDBY_MODE, SlurmError.IN_STANDBY_MODE.message());
    };
  }

  private String leader() {
    try {
      RaftPeerId id = server.getDivision(group.raftGroup().getGroupId()).getInfo().getLeaderId();
      return id == null ? "" : id.toString();
    } catch (IOException e) {
      return "";
    }
  }

  private static Response error(SlurmError e, String message) {
    return Response.newBuilder().setErrorCode(e.code()).setErrorMessage(message).build();
  }
}
