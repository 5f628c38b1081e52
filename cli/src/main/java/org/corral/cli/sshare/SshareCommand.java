package org.corral.cli.sshare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.SlurmError;
import org.corral.common.Version;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.ShareInfoReply;
import org.corral.protocol.msg.ShareInfoRequest;

/**
 * sshare: the associations' shares, usage and fairshare as the controller last computed them,
 * laid out as Slurm 22.05's sshare does. Without -a or -u only the caller's user associations are
 * asked for (accounts always come); -A limits to the named accounts' associations; -U prints user
 * rows only. The default columns depend on the controller's algorithm (Fair Tree adds LevelFS to
 * -l).
 */
public final class SshareCommand implements CliCommand {
  private static final Getopt GETOPT = new Getopt("aA:ehlM:no:pPqUu:t:vVm", List.of(
      new LongOpt("accounts", Arg.REQUIRED, "A"),
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("helpformat", Arg.NONE, "e"),
      new LongOpt("long", Arg.NONE, "l"),
      new LongOpt("partition", Arg.NONE, "m"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("clusters", Arg.REQUIRED, "M"),
      new LongOpt("noheader", Arg.NONE, "n"),
      new LongOpt("format", Arg.REQUIRED, "o"),
      new LongOpt("parsable", Arg.NONE, "p"),
      new LongOpt("parsable2", Arg.NONE, "P"),
      new LongOpt("users", Arg.REQUIRED, "u"),
      new LongOpt("Users", Arg.NONE, "U"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage")));

  static final String USAGE = """
      Usage:  sshare [OPTION]                                                   \s
        Valid OPTIONs are:                                                      \s
          -a or --all            list all users                                 \s
          -A or --accounts=      display specific accounts (comma separated list)
          -e or --helpformat     Print a list of fields that can be specified   \s
                                 with the '--format' option                     \s
          -l or --long           include normalized usage in output             \s
          -m or --partition      print the partition part of the association    \s
          -M or --cluster=names  clusters to issue commands to.                 \s
                                 NOTE: SlurmDBD must be up.                     \s
          -n or --noheader       omit header from output                        \s
          -o or --format=        Comma separated list of fields (use            \s
                                 "--helpformat" for a list of available fields).
          -p or --parsable       '|' delimited output with a trailing '|'       \s
          -P or --parsable2      '|' delimited output without a trailing '|'    \s
          -u or --users=         display specific users (comma separated list)  \s
          -U or --Users          display only user information                  \s
          -v or --verbose        display more information                       \s
          -V or --version        display tool version number                    \s
                --help           display this usage description                 \s
                --usage          display this usage description                 \s
                                                                                \s

      """;

  private final UserDirectory users;
  private final String caller;

  public SshareCommand() {
    this(UserDirectory.system(), null);
  }

  /** {@code caller}: the user running sshare (null: the process's own). */
  SshareCommand(UserDirectory users, String caller) {
    this.users = users;
    this.caller = caller;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    boolean all = false;
    boolean header = true;
    boolean longFormat = false;
    boolean partitions = false;
    boolean usersOnly = false;
    int verbosity = 0;
    ShareTable.Style style = ShareTable.Style.FIXED;
    StringBuilder format = null;
    Set<String> userList = new LinkedHashSet<>();
    Set<String> accountList = new LinkedHashSet<>();
    try {
      for (Getopt.Opt opt : GETOPT.parse(args).options()) {
        String v = opt.value();
        switch (opt.key()) {
          case "a" -> all = true;
          case "A" -> addAll(accountList, v.toLowerCase(Locale.ROOT));
          case "e" -> {
            cli.out().print(ShareTable.helpFormat());
            return 0;
          }
          case "h", "n" -> header = false;
          case "l" -> longFormat = true;
          case "m" -> partitions = true;
          case "o" -> format = (format == null ? new StringBuilder() : format).append(v).append(',');
          case "p" -> style = ShareTable.Style.PARSABLE;
          case "P" -> style = ShareTable.Style.PARSABLE2;
          case "u" -> {
            if (v.equals("-1")) {
              all = true;
            } else {
              all = false;
              for (String u : names(v)) {
                String name = u.chars().allMatch(Character::isDigit) && !u.isEmpty()
                    ? users.nameOf(Integer.parseUnsignedInt(u)).orElse(null) : u;
                if (name == null) {
                  cli.err().println("Invalid user id: " + u);
                  return 1;
                }
                userList.add(name);
              }
            }
          }
          case "U" -> usersOnly = true;
          case "v" -> verbosity++;
          case "V" -> {
            cli.out().println(Version.TEXT);
            return 0;
          }
          case "help", "usage" -> {
            cli.out().print(USAGE);
            return 0;
          }
          default -> { } // -M (one cluster here), -q, -t
        }
      }
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"sshare --help\" for more information");
      return 1;
    }

    if (all) {
      userList.clear();
      if (verbosity > 0) {
        cli.err().print("Users requested:\n\t: all\n");
      }
    } else if (verbosity > 0 && !userList.isEmpty()) {
      cli.err().println("Users requested:");
      userList.forEach(u -> cli.err().println("\t: " + u));
    } else if (userList.isEmpty()) {
      String me = caller != null ? caller : self();
      if (me != null) {
        userList.add(me);
        if (verbosity > 0) {
          cli.err().print("Users requested:\n\t: " + me + "\n");
        }
      }
    }
    if (verbosity > 0 && !accountList.isEmpty()) {
      cli.err().println("Accounts requested:");
      accountList.forEach(a -> cli.err().println("\t: " + a));
    } else if (verbosity > 0) {
      cli.err().print("Accounts requested:\n\t: all\n");
    }

    ShareInfoReply reply;
    try {
      Response r = cli.controller().get().call(Request.newBuilder().setShareInfo(ShareInfoRequest.newBuilder()
          .addAllUsers(userList).addAllAccounts(accountList)).build());
      if (r.getErrorCode() != 0) {
        cli.err().println("Couldn't get shares from controller: " + SlurmError.messageFor(r.getErrorCode()));
        return r.getErrorCode();
      }
      reply = r.getShareInfo();
    } catch (IOException e) {
      cli.err().println("Couldn't get shares from controller: Unable to contact slurm controller (connect failure)");
      return 1;
    }

    String fields = format != null ? format.toString() : ShareTable.defaultFormat(reply.getFairTree(), longFormat,
        partitions);
    ShareTable table;
    try {
      table = ShareTable.of(fields, reply.getFairTree());
    } catch (ShareTable.UnknownField e) {
      cli.err().println("sshare: error: Invalid field requested: \"" + e.getMessage() + "\"");
      return 1;
    }
    cli.out().print(table.render(reply.getRowsList(), style, header, usersOnly));
    return 0;
  }

  private static void addAll(Set<String> out, String list) {
    out.addAll(names(list));
  }

  /** A comma-separated list as Slurm reads one: empty items dropped, quotes removed. */
  private static List<String> names(String list) {
    List<String> out = new ArrayList<>();
    for (String s : list.replace("\"", "").replace("'", "").split(",")) {
      if (!s.isEmpty() && !out.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  private String self() {
    try {
      int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return users.nameOf(uid).orElse(null);
    } catch (IOException | UnsupportedOperationException e) {
      return System.getProperty("user.name", "").toLowerCase(Locale.ROOT);
    }
  }
}
