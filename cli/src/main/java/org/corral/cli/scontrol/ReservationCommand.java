package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.ParseTime;
import org.corral.common.ReservationFlags;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.DeleteReservationRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.ReservationRequest;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol create|update|delete reservation}: Slurm's KEY=VALUE words read here (times,
 * durations and flags checked with Slurm's messages before the controller is asked), the rest
 * decided by the controller.
 */
final class ReservationCommand {
  /** Minutes a reservation without an end lasts: Duration=UNLIMITED, which Slurm shows as 365 days. */
  private static final long UNLIMITED_MIN = 365L * 24 * 60;

  private ReservationCommand() {}

  /** A word scontrol refuses, with its whole message. */
  private static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /** Whether an update's words name a reservation (ReservationName= or Reservation=). */
  static boolean namesOne(List<String> words) {
    return words.stream().map(w -> w.toLowerCase(Locale.ROOT))
        .anyMatch(w -> w.startsWith("reservationname=") || w.startsWith("reservation="));
  }

  /**
   * {@code create reservation KEY=VALUE...} and {@code delete Reservation[Name]=X} (or
   * {@code delete reservation X}); other entities are not created or deleted by Corral.
   */
  static int run(boolean create, List<String> rest, Cli cli) throws IOException {
    String keyword = create ? "create" : "delete";
    if (rest.isEmpty()) {
      cli.err().println("too few arguments for " + keyword + " keyword");
      return 1;
    }
    String first = rest.get(0);
    String lower = first.toLowerCase(Locale.ROOT);
    int eq = first.indexOf('=');
    String entity = eq < 0 ? lower : lower.substring(0, eq);
    if (!(entity.length() >= 3 && "reservation".startsWith(entity)) && !entity.equals("reservationname")) {
      cli.err().println("scontrol: error: " + keyword + " of " + first + " is not supported by Corral yet");
      return 1;
    }
    if (create) {
      return create(eq < 0 ? rest.subList(1, rest.size()) : rest, cli);
    }
    String name = eq >= 0 ? first.substring(eq + 1) : rest.size() > 1 ? rest.get(1) : "";
    return delete(first, name, cli);
  }

  static int create(List<String> words, Cli cli) throws IOException {
    Map<String, String> f = fieldsOrReport(words, cli, "No reservation created.");
    if (f == null) {
      return 1;
    }
    String fail = null;
    if (!f.containsKey("endtime") && !f.containsKey("duration")) {
      fail = "An end time or duration must be given.";
    } else if (f.keySet().stream().noneMatch(k -> k.startsWith("users") || k.startsWith("accounts"))) {
      fail = "Either Users/Groups and/or Accounts must be specified.";
    } else if (!f.containsKey("nodes") && !f.containsKey("nodecnt") && !f.containsKey("corecnt")) {
      fail = "CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.";
    }
    if (fail != null) {
      cli.err().println("scontrol: error: " + fail + "  No reservation created.");
      return 1;
    }
    Response r = cli.controller().get().call(Request.newBuilder().setReservation(
        ReservationRequest.newBuilder().putAllFields(f)).build());
    if (r.getErrorCode() != 0) {
      // the reference adds the note to every "busy" refusal, named nodes included
      if (!f.containsKey("nodes") && !f.containsKey("partitionname")
          || r.getErrorCode() == SlurmError.NODES_BUSY.code()) {
        cli.out().println("Note, unless nodes are directly requested a reservation must exist in a single partition.");
        cli.out().println("If no partition is requested the default partition is assumed.");
      }
      cli.err().println("Error creating the reservation: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    cli.out().println("Reservation created: " + r.getReservation().getName());
    return 0;
  }

  static int update(List<String> words, Cli cli) throws IOException {
    Map<String, String> f = fieldsOrReport(words, cli, "No reservation updated.");
    if (f == null) {
      return 1;
    }
    Response r = cli.controller().get().call(Request.newBuilder().setReservation(
        ReservationRequest.newBuilder().setUpdate(true).putAllFields(f)).build());
    if (r.getErrorCode() != 0) {
      String text = SlurmError.messageFor(r.getErrorCode());
      cli.err().println("Error updating the reservation: " + text);
      cli.err().println("slurm_update error: " + text);
      return 1;
    }
    cli.out().println("Reservation updated.");
    return 0;
  }

  /** {@code delete Reservation[Name]=X} or {@code delete reservation X}: errors name the word as typed. */
  static int delete(String word, String name, Cli cli) throws IOException {
    Response r = cli.controller().get().call(Request.newBuilder().setDeleteReservation(
        DeleteReservationRequest.newBuilder().setName(name)).build());
    if (r.getErrorCode() != 0) {
      cli.err().println("delete_reservation " + word + ": " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    return 0;
  }

  /** The fields, or null once the refusal is printed. */
  private static Map<String, String> fieldsOrReport(List<String> words, Cli cli, String tail) {
    try {
      return fields(words, cli, tail);
    } catch (Refused e) {
      cli.err().println(e.getMessage());
      return null;
    }
  }

  /** The words as the request's fields (see ReservationRequest), or Slurm's refusal. */
  private static Map<String, String> fields(List<String> words, Cli cli, String tail) throws Refused {
    Map<String, String> f = new LinkedHashMap<>();
    long now = cli.clock().instant().getEpochSecond();
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = eq < 0 ? w.toLowerCase(Locale.ROOT) : w.substring(0, eq).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : w.substring(eq + 1);
      switch (key) {
        case "reservationname", "reservation" -> f.put("reservationname", value);
        case "starttime", "endtime" -> f.put(key, time(w, value, now, cli, key.equals("starttime") ? "start" : "end", tail));
        case "duration" -> f.put(key, duration(w, value, tail));
        case "nodes", "nodecnt", "corecnt", "users", "accounts", "users+", "users-", "accounts+", "accounts-",
            "partitionname", "partition" ->
            f.put(key.equals("partition") ? "partitionname" : key, value);
        case "flags" -> {
          List<String> flags = ReservationFlags.parse(value);
          if (flags == null) {
            throw new Refused("scontrol: error: Error parsing flags " + value + ".  " + tail);
          }
          f.put(key, String.join(",", flags));
        }
        default -> throw new Refused("scontrol: error: Unknown parameter " + w + ".  " + tail);
      }
    }
    return f;
  }

  private static String time(String word, String value, long now, Cli cli, String which, String tail)
      throws Refused {
    try {
      return Long.toString(ParseTime.parse(value, now, cli.clock().getZone()));
    } catch (ParseTime.Invalid e) {
      throw new Refused(e.getMessage() + "\nscontrol: error: Invalid " + which + " time " + word + ".  " + tail);
    }
  }

  private static String duration(String word, String value, String tail) throws Refused {
    try {
      long min = SlurmDuration.parseMinutes(value);
      return Long.toString(min == SlurmDuration.INFINITE ? UNLIMITED_MIN : min);
    } catch (IllegalArgumentException e) {
      throw new Refused("scontrol: error: Invalid duration " + word + ".  " + tail);
    }
  }
}
