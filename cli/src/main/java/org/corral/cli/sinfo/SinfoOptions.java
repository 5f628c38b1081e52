package org.corral.cli.sinfo;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.corral.protocol.NodeStates;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.Hostlist;

/** sinfo's options, from SINFO_* variables first and then the command line. */
record SinfoOptions(String format, String longFormat, boolean header, boolean dateLine,
    boolean nodeOriented, boolean summarize, boolean reasons, boolean exact,
    List<String> partitions, List<String> nodes, List<String> states, boolean all,
    boolean json, boolean dead, boolean responding, boolean reservations, String info, int iterate) {

  /** Slurm's list after "Bad state string" (sinfo -t with a word it does not know). */
  static final String VALID_STATES = "unknown,down,idle,allocated,?,mixed,future,drain,drained,"
      + "draining,no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,"
      + "power_down,powering_up,fail,maint,reboot,reboot^,unknown";

  private static final Getopt GETOPT = new Getopt("adehi:lM:n:NO:o:p:rRsS:t:TvV", List.of(
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("dead", Arg.NONE, "d"),
      new LongOpt("exact", Arg.NONE, "e"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("noheader", Arg.NONE, "h"),
      new LongOpt("iterate", Arg.REQUIRED, "i"),
      new LongOpt("json", Arg.NONE, "json"),
      new LongOpt("long", Arg.NONE, "l"),
      new LongOpt("nodes", Arg.REQUIRED, "n"),
      new LongOpt("Node", Arg.NONE, "N"),
      new LongOpt("format", Arg.REQUIRED, "o"),
      new LongOpt("Format", Arg.REQUIRED, "O"),
      new LongOpt("partition", Arg.REQUIRED, "p"),
      new LongOpt("reservation", Arg.NONE, "T"),
      new LongOpt("responding", Arg.NONE, "r"),
      new LongOpt("list-reasons", Arg.NONE, "R"),
      new LongOpt("summarize", Arg.NONE, "s"),
      new LongOpt("sort", Arg.REQUIRED, "S"),
      new LongOpt("states", Arg.REQUIRED, "t"),
      new LongOpt("usage", Arg.NONE, "usage"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V")));

  static SinfoOptions parse(List<String> args, Map<String, String> env)
      throws Getopt.GetoptException {
    String format = env.get("SINFO_FORMAT");
    String longFormat = null;
    List<String> partitions = env.get("SINFO_PARTITION") == null ? null
        : split(env.get("SINFO_PARTITION"));
    boolean header = true;
    boolean dateLine = false;
    boolean nodeOriented = false;
    boolean summarize = false;
    boolean reasons = false;
    boolean exact = false;
    boolean all = false;
    boolean json = false;
    boolean dead = false;
    boolean responding = false;
    boolean reservations = false;
    String info = null;
    int iterate = 0;
    List<String> nodes = null;
    List<String> states = null;
    for (Getopt.Opt o : GETOPT.parse(args).options()) {
      String v = o.value();
      switch (o.key()) {
        case "e" -> exact = true;
        case "d" -> dead = true;
        case "r" -> responding = true;
        case "T" -> reservations = true;
        case "help", "usage", "V" -> info = info == null ? o.key() : info; // the first one wins
        case "a" -> all = true;
        case "json" -> json = true;
        case "h" -> header = false;
        case "l" -> dateLine = true;
        case "n" -> nodes = Hostlist.expand(v);
        case "N" -> nodeOriented = true;
        case "o" -> format = v;
        case "O" -> longFormat = v;
        case "p" -> partitions = split(v);
        case "R" -> reasons = true;
        case "s" -> summarize = true;
        case "t" -> {
          states = split(v);
          for (String s : states) {
            if (!NodeStates.isStateWord(s)) {
              throw new IllegalArgumentException("Bad state string: \"" + s + "\"\n"
                  + "valid states: " + VALID_STATES);
            }
          }
        }
        case "i" -> {
          Integer seconds = org.corral.cli.format.Iteration.seconds(v);
          if (seconds == null) {
            throw new IllegalArgumentException("Error: invalid entry for --iterate=" + v);
          }
          iterate = seconds;
        }
        default -> { } // -M, -S, -v: accepted, no effect here
      }
    }
    return new SinfoOptions(format, longFormat, header, dateLine, nodeOriented, summarize,
        reasons, exact, partitions, nodes, states, all, json, dead, responding, reservations, info, iterate);
  }

  private static List<String> split(String v) {
    return Arrays.stream(v.split(",")).filter(s -> !s.isEmpty()).toList();
  }
}
