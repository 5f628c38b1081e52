package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.DaemonChannels;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TakeoverRequest;

/**
 * {@code scontrol ping} and {@code scontrol takeover} with several controllers (SlurmctldHost
 * listed two or more times). Ping asks each controller alone and prints Slurm 22.05's lines:
 * {@code Slurmctld(primary) at HOST is UP}, then {@code backup} for a single backup or
 * {@code backupN} for several, and Slurm's "RESTORE SLURMCTLD DAEMON TO SERVICE" banner when one
 * is down.
 */
final class ControllerPing {
  private ControllerPing() {}

  static int ping(Cli cli, SlurmConfig cfg) {
    int n = cfg.controllers().size();
    boolean anyDown = false;
    boolean anyUp = false;
    for (int i = 0; i < n; i++) {
      String role = i == 0 ? "primary" : n == 2 ? "backup" : "backup" + i;
      boolean up;
      try {
        Response r = DaemonChannels.controller(cfg, i)
            .call(Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
        up = r.getErrorCode() == 0;
      } catch (IOException | RuntimeException e) {
        up = false;
      }
      anyDown |= !up;
      anyUp |= up;
      cli.out().println("Slurmctld(" + role + ") at " + cfg.controllers().get(i).host() + " is " + (up ? "UP" : "DOWN"));
    }
    if (anyDown) {
      cli.out().println("*****************************************");
      cli.out().println("** RESTORE SLURMCTLD DAEMON TO SERVICE **");
      cli.out().println("*****************************************");
    }
    return anyUp ? 0 : 1;
  }

  /**
   * {@code scontrol takeover [INDEX]}: controller INDEX (default 1, the first backup; 0, the
   * primary, is accepted too) takes the lead.
   */
  static int takeover(Cli cli, SlurmConfig cfg, List<String> rest) {
    int index = 1;
    if (!rest.isEmpty()) {
      try {
        index = Integer.parseInt(rest.get(0));
      } catch (NumberFormatException e) {
        index = -1;
      }
    }
    if (index < 0 || index >= cfg.controllers().size()) {
      cli.err().println("takeover: invalid backup controller index " + (rest.isEmpty() ? "1" : rest.get(0)));
      return 1;
    }
    try {
      Response r = DaemonChannels.controller(cfg, index)
          .call(Request.newBuilder().setTakeover(TakeoverRequest.getDefaultInstance()).build());
      if (r.getErrorCode() != 0) {
        cli.err().println("slurm_takeover error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      cli.err().println("slurm_takeover error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
  }
}
