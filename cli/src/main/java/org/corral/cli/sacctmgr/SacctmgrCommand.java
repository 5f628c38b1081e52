package org.corral.cli.sacctmgr;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.UserDirectory;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code sacctmgr [-i] [-n] [-p|-P] [-s] [-Q] COMMAND ENTITY [SPECS...]}: show, add, modify and
 * delete clusters, accounts, users, associations, QOS and coordinators kept by slurmdbd. A
 * change is printed first, checked by slurmdbd, and committed at once with -i or after the user
 * answers y (Slurm's 30 seconds to decide).
 */
public final class SacctmgrCommand implements CliCommand {
  private final InputStream stdin;
  private final long answerMillis;
  private final UserDirectory users;

  public SacctmgrCommand() {
    this(org.corral.cli.Caller.thisProcess());
  }

  /** A sacctmgr reading confirmations from the caller's stdin. */
  public SacctmgrCommand(org.corral.cli.Caller caller) {
    this(caller.stdin().get(), 30_000);
  }

  public SacctmgrCommand(InputStream stdin, long answerMillis) {
    this(stdin, answerMillis, UserDirectory.system());
  }

  /** Reads confirmations from {@code stdin} (waiting {@code answerMillis}); names users through {@code users}. */
  public SacctmgrCommand(InputStream stdin, long answerMillis, UserDirectory users) {
    this.stdin = stdin;
    this.answerMillis = answerMillis;
    this.users = users;
  }

  private boolean immediate;
  private boolean noHeader;
  private boolean quiet;
  private boolean assocFlag;
  private Table.Style style = Table.Style.FIXED;

  @Override
  public int run(List<String> args, Cli cli) {
    List<String> words = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("--")) {
        switch (a) {
          case "--immediate" -> immediate = true;
          case "--noheader" -> noHeader = true;
          case "--parsable" -> style = Table.Style.PARSABLE;
          case "--parsable2" -> style = Table.Style.PARSABLE2;
          case "--quiet" -> quiet = true;
          case "--associations" -> assocFlag = true;
          case "--help", "--usage" -> {
            return help(cli);
          }
          case "--version" -> {
            cli.out().println(org.corral.common.Version.TEXT);
            return 0;
          }
          case "--readonly", "--oneliner", "--verbose" -> { }
          default -> {
            cli.err().println(cli.program() + ": unrecognized option '" + a + "'");
            cli.err().println("Try \"sacctmgr --help\" for more information");
            return 1;
          }
        }
      } else if (a.startsWith("-") && a.length() > 1 && !a.contains("=")) {
        for (char c : a.substring(1).toCharArray()) {
          switch (c) {
            case 'i' -> immediate = true;
            case 'n' -> noHeader = true;
            case 'p' -> style = Table.Style.PARSABLE;
            case 'P' -> style = Table.Style.PARSABLE2;
            case 'Q' -> quiet = true;
            case 's' -> assocFlag = true;
            case 'h' -> {
              return help(cli);
            }
            case 'V' -> {
              cli.out().println(org.corral.common.Version.TEXT);
              return 0;
            }
            case 'r', 'o', 'v' -> { }
            default -> {
              cli.err().println(cli.program() + ": invalid option -- '" + c + "'");
              cli.err().println("Try \"sacctmgr --help\" for more information");
              return 1;
            }
          }
        }
      } else {
        words.add(a);
      }
    }
    if (words.isEmpty()) {
      return help(cli);
    }
    String cmd = words.get(0).toLowerCase(Locale.ROOT);
    List<String> rest = words.subList(1, words.size());
    try {
      if (is(cmd, "show", 3) || is(cmd, "list", 3)) {
        return show(rest, cli);
      }
      if (is(cmd, "add", 3) || is(cmd, "create", 3)) {
        return change("add", rest, cli);
      }
      if (is(cmd, "modify", 1) || is(cmd, "update", 1)) {
        return change("modify", rest, cli);
      }
      if (is(cmd, "delete", 3) || is(cmd, "remove", 3)) {
        return change("delete", rest, cli);
      }
      if (is(cmd, "archive", 3)) {
        return new Archive(cli, immediate, q -> confirm(cli, q)).run(rest);
      }
      if (is(cmd, "help", 2)) {
        return help(cli);
      }
      if (is(cmd, "version", 4)) {
        cli.out().println(org.corral.common.Version.TEXT);
        return 0;
      }
    } catch (Limits.BadValue e) {
      if (e.before != null) {
        cli.err().println(e.before);
      }
      (e.onOut ? cli.out() : cli.err()).println(" " + e.getMessage());
      return 1;
    } catch (Denied e) {
      cli.error("error: " + SlurmError.ACCESS_DENIED.message()); // slurmdbd's PrivateData, in Slurm 22.05's words
      cli.err().println(" " + e.getMessage());
      return 1;
    } catch (IOException e) {
      cli.error("error: slurmdbd: " + e.getMessage());
      return 1;
    }
    cli.err().println("invalid keyword: " + words.get(0));
    return 1;
  }

  private static boolean is(String word, String name, int min) {
    return word.length() >= Math.min(min, name.length()) && name.startsWith(word);
  }

  /** The entity a word names, or null. */
  static String entity(String w) {
    String l = w.toLowerCase(Locale.ROOT);
    if (l.length() >= 2 && "accounts".startsWith(l)) {
      return "account";
    }
    if (l.length() >= 2 && "associations".startsWith(l)) {
      return "association";
    }
    if (l.length() >= 2 && "clusters".startsWith(l)) {
      return "cluster";
    }
    if (l.length() >= 2 && "coordinators".startsWith(l)) {
      return "coordinator";
    }
    if (l.length() >= 1 && "qos".startsWith(l) || l.equals("qoss")) {
      return "qos";
    }
    if (l.length() >= 1 && "users".startsWith(l)) {
      return "user";
    }
    if (l.length() >= 1 && "tres".startsWith(l)) {
      return "tres";
    }
    if (l.length() >= 1 && "wckeys".startsWith(l)) {
      return "wckey";
    }
    return null;
  }

  /** slurmdbd refused the query (PrivateData): the line Slurm prints after "Access/permission denied". */
  static final class Denied extends IOException {
    private static final long serialVersionUID = 1L;

    Denied(String line) {
      super(line);
    }
  }

  private View snapshot(Cli cli) throws IOException {
    Response r = cli.accounting().get().call(Request.newBuilder()
        .setAssocSnapshot(AssocSnapshotRequest.getDefaultInstance()).build());
    if (r.getErrorCode() != 0) {
      throw new IOException(r.getErrorMessage());
    }
    return new View(r.getAssocSnapshot());
  }

  private int show(List<String> rest, Cli cli) throws IOException {
    if (!rest.isEmpty() && rest.get(0).length() >= 1 && "events".startsWith(rest.get(0).toLowerCase(Locale.ROOT))) {
      return new Events(cli, users).show(rest.subList(1, rest.size()), style,
          !noHeader);
    }
    if (!rest.isEmpty() && (rest.get(0).length() >= 3
        && "transactions".startsWith(rest.get(0).toLowerCase(Locale.ROOT)) || rest.get(0).equalsIgnoreCase("txn"))) {
      return new Transactions(cli).show(rest.subList(1, rest.size()), style, !noHeader);
    }
    if (!rest.isEmpty() && rest.get(0).length() >= 3
        && "configuration".startsWith(rest.get(0).toLowerCase(Locale.ROOT))) {
      return showConfiguration(cli);
    }
    String entity = rest.isEmpty() ? null : entity(rest.get(0));
    if (entity == null || entity.equals("coordinator")) {
      cli.err().print("No valid entity in list command\n"
          + "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
          + "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
          + "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"\n");
      return 1;
    }
    Args a = Args.parse(rest.subList(1, rest.size()), assocFlag);
    if (entity.equals("wckey")) {
      return showWckeys(a, cli);
    }
    View v = entity.equals("tres") ? null : snapshot(cli);
    if (v != null && entity.equals("account") && v.snap.getAccountsDenied()) {
      throw new Denied("Problem with query.");
    }
    Show.Listing l = Show.listing(entity, a, v == null ? new View(org.corral.protocol.msg.AssocSnapshot.getDefaultInstance()) : v);
    List<Table.Column<Columns.Row>> cols;
    try {
      cols = Table.select(l.known(), a.format.isEmpty() ? List.of(l.defaults().split(",")) : a.format);
    } catch (Table.UnknownField e) {
      cli.err().println("Unknown field '" + e.getMessage() + "'");
      return 1;
    }
    new Table<>(cols).print(cli.out(), l.rows(), style, !noHeader);
    return 0;
  }

  /** The local slurm.conf's accounting settings, then slurmdbd's (Configuration). */
  private int showConfiguration(Cli cli) throws IOException {
    org.corral.common.config.SlurmConfig cfg;
    try {
      cfg = org.corral.common.config.SlurmConfig.loadShared(org.corral.common.config.SlurmConfig.defaultPath(cli.env()));
    } catch (org.corral.common.config.ConfigException e) {
      cli.error("error: " + e.getMessage());
      return 1;
    }
    String slurmUser = cfg.slurmUser();
    int slurmUid = users.uidOf(slurmUser).orElse(0);
    Response r = cli.accounting().get().call(Request.newBuilder()
        .setConfig(org.corral.protocol.msg.ConfigRequest.getDefaultInstance()).build());
    if (r.getErrorCode() != 0) {
      throw new IOException(r.getErrorMessage());
    }
    Configuration.print(cli.out(), cli.clock().instant(), Configuration.local(cfg, slurmUser, slurmUid),
        r.getConfig().getEntriesList());
    return 0;
  }

  private int showWckeys(Args a, Cli cli) throws IOException {
    List<Table.Column<org.corral.protocol.msg.AcctWckey>> cols;
    try {
      cols = Table.select(Wckeys.columns(), a.format.isEmpty() ? List.of(Wckeys.DEFAULTS.split(",")) : a.format);
    } catch (Table.UnknownField e) {
      cli.err().println("Unknown field '" + e.getMessage() + "'");
      return 1;
    }
    try {
      new Table<>(cols).print(cli.out(), Wckeys.select(a, snapshot(cli)), style, !noHeader);
    } catch (Wckeys.Refused e) {
      cli.err().println(e.getMessage());
      return 1;
    }
    return 0;
  }

  private int change(String verb, List<String> rest, Cli cli) throws IOException, Limits.BadValue {
    String entity = rest.isEmpty() ? null : entity(rest.get(0));
    if ("wckey".equals(entity) && !verb.equals("modify")) {
      // Slurm's sacctmgr adds and removes wckeys only through users (WCKeys=)
      cli.err().print("No valid entity in " + verb + " command\n"
          + "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\", \"QOS\", "
          + "\"Resource\", or \"User\"\n");
      return 1;
    }
    if (entity == null || entity.equals("tres") || (entity.equals("association"))) {
      cli.err().print("No valid entity in " + verb + " command\n"
          + "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"QOS\", \"User\", or \"WCKey\"\n");
      return 1;
    }
    Args a = Args.parse(rest.subList(1, rest.size()), assocFlag);
    if (verb.equals("modify") && a.set.isEmpty()) {
      cli.err().println(" You didn't give me anything to set");
      return 1;
    }
    View v = snapshot(cli);
    Plan p = switch (verb) {
      case "add" -> switch (entity) {
        case "account" -> Adds.account(a, v);
        case "user" -> Adds.user(a, v);
        case "qos" -> Adds.qos(a, v);
        case "cluster" -> Adds.cluster(a, v);
        default -> Adds.coordinator(a, v);
      };
      case "modify" -> switch (entity) {
        case "account" -> Edits.modifyAccount(a, v);
        case "user" -> Edits.modifyUser(a, v);
        case "qos" -> Edits.modifyQos(a, v);
        default -> Plan.refuse(" Nothing modified\n", false);
      };
      default -> Edits.delete(entity, a, v);
    };
    if (p.refusal != null) {
      (p.refusalOnStderr ? cli.err() : cli.out()).print(p.refusal);
      return 1;
    }
    cli.out().print(p.out);
    if (!immediate) {
      Response check = send(cli, p, true);
      if (check.getErrorCode() != 0) {
        return problem(cli, p, check);
      }
      if (!confirm(cli, "Would you like to commit changes?")) {
        cli.out().println(" Changes Discarded");
        return 0;
      }
    }
    Response r = send(cli, p, false);
    return r.getErrorCode() != 0 ? problem(cli, p, r) : 0;
  }

  private static Response send(Cli cli, Plan p, boolean checkOnly) throws IOException {
    return cli.accounting().get().call(Request.newBuilder().setAcctUpdate(AcctUpdateRequest.newBuilder()
        .addAllChanges(p.changes).setCheckOnly(checkOnly)).build());
  }

  private static int problem(Cli cli, Plan p, Response r) {
    String msg = r.getErrorCode() == SlurmError.ACCESS_DENIED.code() ? SlurmError.ACCESS_DENIED.message()
        : r.getErrorMessage();
    cli.out().flush();
    cli.err().println(" Problem " + p.doing + ": " + msg);
    return 1;
  }

  /**
   * Slurm's commit_check: "(N/y): " until y, n or an empty line; 30 seconds to answer. At end of
   * input Slurm asks forever; here that is a no.
   */
  private boolean confirm(Cli cli, String question) {
    cli.out().print(question + " (You have 30 seconds to decide)\n");
    BlockingQueue<Integer> chars = new ArrayBlockingQueue<>(4096);
    Thread reader = new Thread(() -> {
      try {
        int c;
        do {
          c = stdin.read();
          chars.put(c);
        } while (c >= 0);
      } catch (IOException | InterruptedException e) {
        chars.offer(-1);
      }
    }, "sacctmgr-stdin");
    reader.setDaemon(true);
    reader.start();
    int c = 0;
    while (c != 'Y' && c != 'y' && c != 'N' && c != 'n' && c != '\n') {
      if (c != 0) {
        cli.out().print("Y or N please\n");
      }
      cli.out().print("(N/y): ");
      cli.out().flush();
      Integer got;
      try {
        got = chars.poll(answerMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        got = null;
      }
      if (got == null) {
        cli.out().print("timeout\n");
        return false;
      }
      c = got;
      cli.out().print("\n");
      if (c < 0) {
        return false;
      }
    }
    return c == 'Y' || c == 'y';
  }

  private static int help(Cli cli) {
    cli.out().print(Help.text());
    return 0;
  }
}
