package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UpdateNodeRequest;

/**
 * {@code scontrol update NodeName=LIST [State=STATE] [Reason=TEXT] [Features=|AvailableFeatures=LIST]
 * [ActiveFeatures=LIST] [Weight=N]}: node updates, with Slurm's
 * messages for what it refuses before asking the controller; JobId= goes to {@link JobUpdate}.
 * Partition updates are not part of Corral yet.
 */
final class UpdateCommand {
  /** The State= values scontrol passes on (Slurm 22.05 also knows power and FAIL states). */
  private static final Set<String> NODE_STATES = Set.of("DRAIN", "DOWN", "FAIL", "RESUME", "IDLE", "UNDRAIN");
  /** The largest Weight= (Slurm's INFINITE less 15, which it keeps for itself). */
  private static final long NODE_WEIGHT_MAX = 4294967280L;

  private UpdateCommand() {}

  static int run(List<String> words, Cli cli) {
    if (words.isEmpty()) {
      cli.err().println("too few arguments for update keyword");
      return 1;
    }
    if (words.stream().anyMatch(w -> w.toLowerCase(Locale.ROOT).startsWith("jobid="))) {
      return JobUpdate.run(words, cli);
    }
    String nodes = null;
    String state = "";
    String stateWord = "";
    String reason = null;
    UpdateNodeRequest.Builder req = UpdateNodeRequest.newBuilder();
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = eq < 0 ? w : w.substring(0, eq).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : w.substring(eq + 1);
      switch (key) {
        case "nodename" -> nodes = value;
        case "state" -> {
          state = value;
          stateWord = w; // echoed as typed in Slurm's "Invalid input"
        }
        case "reason" -> reason = value;
        case "features", "availablefeatures" -> req.setFeatures(value);
        case "activefeatures" -> req.setActiveFeatures(value);
        case "weight" -> {
          String error = weightError(value);
          if (error != null) {
            cli.err().println("scontrol: error: Weight value (" + value + ") " + error);
            cli.err().println("No changes specified");
            return 1;
          }
          req.setWeight((int) Long.parseLong(value));
        }
        default -> {
          if (nodes == null && isOtherEntity(key)) {
            cli.err().println("scontrol: error: update of " + w.substring(0, eq)
                + " is not supported by Corral yet");
            return 1;
          }
          cli.err().println("Update of this parameter is not supported: " + w);
          cli.err().println("Request aborted");
          return 1;
        }
      }
    }
    if (nodes == null) {
      cli.err().println("No valid entity in update command");
      cli.err().println("Input line must include \"NodeName\", \"PartitionName\", \"Reservation\", "
          + "\"JobId\", or \"SlurmctldDebug\"");
      return 1;
    }
    String upper = state.toUpperCase(Locale.ROOT);
    if (!state.isEmpty() && !NODE_STATES.contains(upper)) {
      cli.err().println("Invalid input: " + stateWord);
      cli.err().println("Request aborted");
      cli.err().println("Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN");
      cli.err().println("Not all states are valid given a node's prior state");
      return 1;
    }
    if ((upper.equals("DRAIN") || upper.equals("DOWN") || upper.equals("FAIL")) && (reason == null || reason.isEmpty())) {
      cli.err().println("You must specify a reason when DOWNING or DRAINING a node. Request denied");
      return 1;
    }
    req.setNodeNames(nodes).setState(state).setHasReason(reason != null).setReason(reason == null ? "" : reason);
    return send(Request.newBuilder().setUpdateNode(req).build(), cli);
  }

  /** Why scontrol refuses a Weight= value (its own words), or null. */
  private static String weightError(String value) {
    if (!value.matches("-?[0-9]{1,18}")) {
      return "is not a valid number";
    }
    long w = Long.parseLong(value);
    if (w < 0) {
      return "is less than zero";
    }
    return w > NODE_WEIGHT_MAX ? "is greater than " + NODE_WEIGHT_MAX : null;
  }

  private static boolean isOtherEntity(String key) {
    return switch (key) {
      case "partitionname", "reservation", "reservationname", "slurmctlddebug", "frontendname",
          "stepid" -> true;
      default -> false;
    };
  }

  private static int send(Request req, Cli cli) {
    Response r;
    try {
      r = cli.controller().get().call(req);
    } catch (IOException e) {
      cli.err().println("slurm_update error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (r.getErrorCode() != 0) {
      String text = r.getErrorMessage().startsWith("You must")
          ? r.getErrorMessage() : "slurm_update error: " + SlurmError.messageFor(r.getErrorCode());
      cli.err().println(text);
      return 1;
    }
    return 0;
  }
}
