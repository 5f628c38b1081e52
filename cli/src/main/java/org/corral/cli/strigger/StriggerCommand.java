package org.corral.cli.strigger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TriggerClear;
import org.corral.protocol.msg.TriggerInfo;
import org.corral.protocol.msg.TriggerRequest;

/**
 * strigger --set | --get | --clear: event triggers kept by the controller, as Slurm 22.05's
 * strigger sets, lists (the same table, filtered here as strigger filters) and clears them,
 * with its checks and messages in its order.
 */
public final class StriggerCommand implements CliCommand {
  private static final String NEED_TRIGGER = """
      You must specify a trigger (--down, --up, --reconfig, --time, --fini, --burst_buffer,
      --primary_slurmctld_failure,
      --primary_slurmctld_resumed_operation,
      --primary_slurmctld_resumed_control,
      --primary_slurmctld_acct_buffer_full,
      --backup_slurmctld_failure,
      --backup_slurmctld_resumed_operation,
      --backup_slurmctld_as_ctrl,
      --primary_slurmdbd_failure,
      --primary_slurmdbd_resumed_operation,
      --primary_database_failure, or\s
      --primary_database_resumed_operation)
      """;
  static final String HEADER = "TRIG_ID RES_TYPE   RES_ID TYPE                                OFFSET USER     FLAGS PROGRAM";

  @Override
  public int run(List<String> args, Cli cli) {
    Getopt.Result parsed;
    try {
      parsed = StriggerOptions.GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"strigger --help\" for more information");
      return 1;
    }
    StriggerOptions o = new StriggerOptions();
    for (Getopt.Opt opt : parsed.options()) {
      switch (opt.key()) {
        case "help" -> {
          return HelpText.info(cli, StriggerCommand.class, "help", null);
        }
        case "usage" -> {
          return HelpText.info(cli, StriggerCommand.class, "usage", null);
        }
        case "V" -> {
          return HelpText.info(cli, StriggerCommand.class, "V", null);
        }
        default -> {
          String bad = o.apply(opt);
          if (bad != null) {
            cli.error("error: " + bad);
            return 1;
          }
        }
      }
    }
    if ((o.set ? 1 : 0) + (o.get ? 1 : 0) + (o.clear ? 1 : 0) != 1) {
      cli.error("error: You must use exactly one of the following options: --set, --get or --clear");
      return 1;
    }
    OptionalInt uid = OptionalInt.empty();
    if (o.user != null) {
      uid = userId(o.user);
      if (uid.isEmpty()) {
        cli.error("error: Invalid user " + o.user);
        return 1;
      }
    }
    try {
      if (o.set) {
        return set(cli, o);
      }
      if (o.clear) {
        return clear(cli, o, uid);
      }
      return get(cli, o, uid);
    } catch (IOException | UncheckedIOException e) {
      cli.error("error: " + e.getMessage());
      return 1;
    }
  }

  private static int set(Cli cli, StriggerOptions o) throws IOException {
    String check = checkSet(o);
    if (check != null) {
      cli.error("error: " + check);
      return 1;
    }
    for (StriggerOptions.Event e : o.events) {
      TriggerInfo.Builder t = TriggerInfo.newBuilder().setType(e.type()).setOffset(o.offset).setPerm(o.perm)
          .setProgram(o.program);
      if (o.jobId != 0 && !e.resType().equals("slurmctld") && !e.resType().equals("slurmdbd")
          && !e.resType().equals("database")) {
        t.setResType("job").setResId(Integer.toUnsignedString(o.jobId));
      } else {
        t.setResType(e.resType()).setResId(e.resType().equals("node") && o.nodes != null ? o.nodes : "*");
      }
      Response r = call(cli, TriggerRequest.newBuilder().setSet(t).build());
      if (r.getErrorCode() != 0) {
        cli.err().println("slurm_set_trigger: " + r.getErrorMessage());
        return 1;
      }
    }
    return 0;
  }

  /** --set's checks, in the reference's order; null when all pass. */
  static String checkSet(StriggerOptions o) {
    if (o.events.isEmpty()) {
      return NEED_TRIGGER;
    }
    boolean jobEvent = o.events.stream().anyMatch(e -> e.resType().equals("job"));
    if (jobEvent && o.jobId == 0) {
      return "You must specify a --jobid value";
    }
    if (o.program == null) {
      return "You must specify a --program value";
    }
    if (!o.program.startsWith("/")) {
      return "The --program value must start with \"/\"";
    }
    Path program = Path.of(o.program.strip().split("\\s+")[0]);
    if (!Files.exists(program)) {
      return "Invalid --program value, file not found";
    }
    if (!Files.isRegularFile(program)) {
      return "Invalid --program value, not regular file";
    }
    if (o.offset > 32000 || o.offset < -32000) {
      return "The --offset parameter must be between +/-32000";
    }
    return null;
  }

  private static int clear(Cli cli, StriggerOptions o, OptionalInt uid) throws IOException {
    if (o.id == 0 && o.jobId == 0 && uid.isEmpty()) {
      cli.error("error: You must specify a --id, --jobid, or --user to clear");
      return 1;
    }
    TriggerClear.Builder c = TriggerClear.newBuilder().setId(o.id).setJobId(o.jobId);
    uid.ifPresent(u -> c.setByUser(true).setUserId(u));
    Response r = call(cli, TriggerRequest.newBuilder().setClear(c).build());
    if (r.getErrorCode() != 0) {
      if (o.quiet) {
        return 0;
      }
      cli.err().println("slurm_clear_trigger: " + r.getErrorMessage());
      return 1;
    }
    return 0;
  }

  private static int get(Cli cli, StriggerOptions o, OptionalInt uid) throws IOException {
    Response r = call(cli, TriggerRequest.newBuilder().setGet(true).build());
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_get_triggers: " + r.getErrorMessage());
      return 1;
    }
    List<TriggerInfo> shown = new ArrayList<>();
    for (TriggerInfo t : r.getTrigger().getTriggersList()) {
      if (selected(t, o, uid)) {
        shown.add(t);
      }
    }
    if (shown.isEmpty()) {
      return 0;
    }
    if (o.header) {
      cli.out().println(HEADER);
    }
    shown.forEach(t -> cli.out().println(row(t)));
    return 0;
  }

  /** strigger's filters: id, job, node (node triggers), user, and the event types named. */
  static boolean selected(TriggerInfo t, StriggerOptions o, OptionalInt uid) {
    if (o.id != 0 && t.getId() != o.id) {
      return false;
    }
    if (o.jobId != 0 && !(t.getResType().equals("job") && t.getResId().equals(Integer.toUnsignedString(o.jobId)))) {
      return false;
    }
    if (o.node && !t.getResType().equals("node")) {
      return false;
    }
    if (uid.isPresent() && t.getUserId() != uid.getAsInt()) {
      return false;
    }
    return o.events.isEmpty() || o.events.stream().anyMatch(e -> e.type().equals(t.getType()));
  }

  static String row(TriggerInfo t) {
    return String.format("%7d %-9s %7s %-35s %6d %-8s %-5s %s", t.getId(), t.getResType(), t.getResId(),
        t.getType(), t.getOffset(), t.getUserName(), t.getPerm() ? "PERM" : "", t.getProgram());
  }

  private static OptionalInt userId(String user) {
    if (!user.isEmpty() && user.chars().allMatch(Character::isDigit)) {
      try {
        return OptionalInt.of(Integer.parseUnsignedInt(user));
      } catch (NumberFormatException e) {
        return OptionalInt.empty();
      }
    }
    return UserDirectory.system().uid(user);
  }

  private static Response call(Cli cli, TriggerRequest req) throws IOException {
    return cli.controller().get().call(Request.newBuilder().setTrigger(req).build());
  }
}
