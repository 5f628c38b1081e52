package org.corral.cli.sacct;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.corral.cli.format.ParseTime;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.Hostlist;
import org.corral.protocol.JobStateNames;
import org.corral.protocol.msg.JobState;

/**
 * sacct's command line read as Slurm 22.05 reads it: options in order (each checked as it comes,
 * with Slurm's messages), then the default time window, then the fields.
 */
record SacctOptions(
    Help help,
    List<JobSelector> jobs,
    boolean allUsers,
    Set<Integer> users,
    List<String> accounts,
    List<String> partitions,
    List<String> names,
    List<String> nodes,
    List<String> qos,
    List<String> clusters,
    boolean allClusters,
    boolean duplicates,
    List<String> stateNames,
    Set<JobState> states,
    long start,
    long end,
    boolean noSteps,
    boolean header,
    String delimiter,
    boolean trailingDelimiter,
    List<SacctField> fields,
    Units units,
    int verbose,
    boolean json,
    boolean yaml) {

  enum Help { NONE, HELP, USAGE, FIELDS, VERSION }

  /** Options refused: the lines to print on stderr and exit status 1. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final List<String> lines;

    Refused(String... lines) {
      super(String.join("\n", lines));
      this.lines = List.of(lines);
    }
  }

  private static final Getopt GETOPT = new Getopt("aA:bBcC:DeE:f:F:g:hi:I:j:k:K:lLM:nN:o:pPq:r:R:s:S:Ttu:UvVW:x:X",
      List.of(
          new LongOpt("allusers", Arg.NONE, "a"),
          new LongOpt("accounts", Arg.REQUIRED, "A"),
          new LongOpt("allocations", Arg.NONE, "X"),
          new LongOpt("brief", Arg.NONE, "b"),
          new LongOpt("batch-script", Arg.NONE, "B"),
          new LongOpt("completion", Arg.NONE, "c"),
          new LongOpt("constraints", Arg.REQUIRED, "C"),
          new LongOpt("delimiter", Arg.REQUIRED, "delimiter"),
          new LongOpt("duplicates", Arg.NONE, "D"),
          new LongOpt("env-vars", Arg.NONE, "env-vars"),
          new LongOpt("federation", Arg.NONE, "federation"),
          new LongOpt("helpformat", Arg.NONE, "e"),
          new LongOpt("help-fields", Arg.NONE, "e"),
          new LongOpt("endtime", Arg.REQUIRED, "E"),
          new LongOpt("file", Arg.REQUIRED, "f"),
          new LongOpt("flags", Arg.REQUIRED, "F"),
          new LongOpt("gid", Arg.REQUIRED, "g"),
          new LongOpt("group", Arg.REQUIRED, "g"),
          new LongOpt("help", Arg.NONE, "h"),
          new LongOpt("json", Arg.NONE, "json"),
          new LongOpt("local", Arg.NONE, "local"),
          new LongOpt("name", Arg.REQUIRED, "name"),
          new LongOpt("nnodes", Arg.REQUIRED, "i"),
          new LongOpt("ncpus", Arg.REQUIRED, "I"),
          new LongOpt("jobs", Arg.REQUIRED, "j"),
          new LongOpt("timelimit-min", Arg.REQUIRED, "k"),
          new LongOpt("timelimit-max", Arg.REQUIRED, "K"),
          new LongOpt("long", Arg.NONE, "l"),
          new LongOpt("allclusters", Arg.NONE, "L"),
          new LongOpt("cluster", Arg.REQUIRED, "M"),
          new LongOpt("clusters", Arg.REQUIRED, "M"),
          new LongOpt("nodelist", Arg.REQUIRED, "N"),
          new LongOpt("noconvert", Arg.NONE, "noconvert"),
          new LongOpt("units", Arg.REQUIRED, "units"),
          new LongOpt("noheader", Arg.NONE, "n"),
          new LongOpt("fields", Arg.REQUIRED, "o"),
          new LongOpt("format", Arg.REQUIRED, "o"),
          new LongOpt("parsable", Arg.NONE, "p"),
          new LongOpt("parsable2", Arg.NONE, "P"),
          new LongOpt("qos", Arg.REQUIRED, "q"),
          new LongOpt("partition", Arg.REQUIRED, "r"),
          new LongOpt("reason", Arg.REQUIRED, "R"),
          new LongOpt("state", Arg.REQUIRED, "s"),
          new LongOpt("starttime", Arg.REQUIRED, "S"),
          new LongOpt("truncate", Arg.NONE, "T"),
          new LongOpt("uid", Arg.REQUIRED, "u"),
          new LongOpt("usage", Arg.NONE, "U"),
          new LongOpt("use-local-uid", Arg.NONE, "use-local-uid"),
          new LongOpt("user", Arg.REQUIRED, "u"),
          new LongOpt("verbose", Arg.NONE, "v"),
          new LongOpt("version", Arg.NONE, "V"),
          new LongOpt("wckeys", Arg.REQUIRED, "W"),
          new LongOpt("whole-hetjob", Arg.OPTIONAL, "whole-hetjob"),
          new LongOpt("yaml", Arg.NONE, "yaml"),
          new LongOpt("associations", Arg.REQUIRED, "x")));

  private static final Set<String> UNTRACKED_STATES = Set.of("RESIZING", "RS", "REVOKED", "RV");
  private static final Set<String> UNACCOUNTED_STATES = Set.of("SPECIAL_EXIT", "SE", "COMPLETING", "CG",
      "CONFIGURING", "CF", "STOPPED", "ST", "SIGNALING", "SI", "STAGE_OUT", "SO", "RESV_DEL_HOLD", "RD",
      "REQUEUE_FED", "RF", "REQUEUE_HOLD", "RH");

  static SacctOptions parse(List<String> args, Map<String, String> env, long now, ZoneId zone,
      int callerUid, UserDirectory users) throws Refused {
    Getopt.Result parsed;
    try {
      parsed = GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      throw new Refused("sacct: " + e.getMessage());
    }
    Help help = Help.NONE;
    List<JobSelector> jobs = new ArrayList<>();
    boolean jobsGiven = false;
    boolean allUsers = false;
    Set<Integer> uids = new LinkedHashSet<>();
    List<String> accounts = new ArrayList<>();
    List<String> partitions = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<String> nodes = new ArrayList<>();
    List<String> qos = new ArrayList<>();
    List<String> clusters = new ArrayList<>();
    boolean allClusters = false;
    boolean duplicates = false;
    List<String> stateNames = new ArrayList<>();
    Set<JobState> states = EnumSet.noneOf(JobState.class);
    long start = 0;
    boolean startGiven = false; // -S may name the epoch itself (1970-01-01)
    long end = 0;
    boolean noSteps = false;
    boolean header = true;
    String delimiter = "|";
    int parsable = 0; // 1: -p, 2: -P
    StringBuilder fieldList = new StringBuilder();
    boolean brief = false;
    boolean longFormat = false;
    int unit = -1;
    boolean noConvert = false;
    int verbose = 0;
    boolean json = false;
    boolean yaml = false;
    for (Getopt.Opt o : parsed.options()) {
      String v = o.value();
      switch (o.key()) {
        case "a" -> allUsers = true;
        case "A" -> accounts.addAll(list(v));
        case "b" -> brief = true;
        case "delimiter" -> delimiter = v;
        case "D" -> duplicates = true;
        case "e" -> help = Help.FIELDS;
        case "E" -> end = time(v, now, zone);
        case "h" -> help = Help.HELP;
        case "j" -> {
          List<JobSelector> given = JobSelector.parseList(v);
          jobs.addAll(given);
          jobsGiven = !jobs.isEmpty();
        }
        case "l" -> longFormat = true;
        case "L" -> allClusters = true;
        case "M" -> {
          if (v.equalsIgnoreCase("all") || v.equals("-1")) {
            allClusters = true;
          } else {
            allClusters = false;
            clusters.addAll(list(v));
          }
        }
        case "n" -> header = false;
        case "N" -> {
          if (nodes.isEmpty()) {
            try {
              nodes.addAll(Hostlist.expand(v));
            } catch (RuntimeException e) {
              throw new Refused("sacct: error: Invalid node list: " + v);
            }
          }
        }
        case "name" -> names.addAll(list(v));
        case "noconvert" -> noConvert = true;
        case "units" -> {
          unit = Units.unitOf(v);
          if (unit < 0) {
            throw new Refused("sacct: error: Invalid unit type '" + v + "'. Possible options are 'KMGTP'",
                "sacct: fatal: Invalid unit type");
          }
        }
        case "o" -> fieldList.append(v).append(',');
        case "p" -> parsable = 1;
        case "P" -> parsable = 2;
        case "q" -> list(v).forEach(q -> qos.add(q.toLowerCase(Locale.ROOT)));
        case "r" -> partitions.addAll(list(v));
        case "s" -> {
          for (String w : list(v)) {
            String u = w.toUpperCase(Locale.ROOT);
            if (UNACCOUNTED_STATES.contains(u)) {
              throw new Refused("sacct: fatal: job state " + w + " is not supported / accounted");
            }
            Optional<JobState> state = JobStateNames.parse(u); // SPECIAL_EXIT refused above
            if (state.isPresent()) {
              states.add(state.get());
            } else if (!UNTRACKED_STATES.contains(u)) {
              throw new Refused("sacct: fatal: unrecognized job state value '" + w + "'");
            }
            stateNames.add(u);
          }
        }
        case "S" -> {
          start = time(v, now, zone);
          startGiven = true;
        }
        case "u" -> {
          if (v.equals("-1")) {
            allUsers = true;
          } else {
            allUsers = false;
            for (String name : list(v)) {
              OptionalInt uid = name.chars().allMatch(Character::isDigit) ? OptionalInt.of(Integer.parseInt(name))
                  : users.uidOf(name);
              if (uid.isEmpty()) {
                throw new Refused("sacct: error: Invalid user id: " + name);
              }
              uids.add(uid.getAsInt());
            }
          }
        }
        case "U" -> help = Help.USAGE;
        case "v" -> verbose++;
        case "V" -> {
          return withHelp(Help.VERSION);
        }
        case "X", "t" -> noSteps = true;
        case "json" -> json = true;
        case "yaml" -> yaml = true;
        default -> { } // accepted and ignored: -c -C -F -g -i -I -k -K -q -R -T -W -x --local ...
      }
    }
    if (help != Help.NONE) {
      return withHelp(help);
    }
    boolean statesGiven = !stateNames.isEmpty();
    if (!startGiven && !jobsGiven) {
      start = statesGiven ? now : java.time.LocalDate.ofInstant(Instant.ofEpochSecond(now), zone)
          .atTime(LocalTime.MIDNIGHT).atZone(zone).toEpochSecond();
    }
    if (end == 0) {
      end = statesGiven && start != 0 ? start + 1 : now;
    }
    if (start > end) {
      throw new Refused("sacct: error: Start time (" + SlurmTimes.iso(start, zone, "Unknown")
          + ") requested is after end time (" + SlurmTimes.iso(end, zone, "Unknown") + ").");
    }
    if (brief) {
      fieldList.append(SacctField.BRIEF).append(',');
    }
    if (longFormat) {
      fieldList.append(SacctField.LONG).append(',');
    }
    if (fieldList.isEmpty()) {
      String fromEnv = env.get("SACCT_FORMAT");
      fieldList.append(fromEnv != null ? fromEnv : SacctField.DEFAULT).append(',');
    }
    List<SacctField> fields = fields(fieldList.toString());
    if (!parsed.operands().isEmpty()) {
      List<String> lines = new ArrayList<>();
      lines.add("sacct: error: Unknown arguments:");
      parsed.operands().forEach(a -> lines.add("sacct: error:  " + a));
      throw new Refused(lines.toArray(String[]::new));
    }
    if (uids.isEmpty() && (jobsGiven || !nodes.isEmpty())) {
      allUsers = true;
    }
    if (uids.isEmpty() && callerUid == 0) {
      allUsers = true;
    }
    if (allUsers) {
      uids.clear();
    }
    return new SacctOptions(Help.NONE, List.copyOf(jobs), allUsers, Set.copyOf(uids), List.copyOf(accounts),
        List.copyOf(partitions), List.copyOf(names), List.copyOf(nodes), List.copyOf(qos), List.copyOf(clusters), allClusters,
        duplicates, List.copyOf(stateNames), Set.copyOf(states), start, end, noSteps, header,
        parsable == 0 ? null : delimiter, parsable == 1, List.copyOf(fields), new Units(unit, noConvert), verbose,
        json, yaml);
  }

  private static SacctOptions withHelp(Help help) {
    return new SacctOptions(help, List.of(), false, Set.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
        false, false, List.of(), Set.of(), 0, 0, false, true, null, false, List.of(), Units.DEFAULT, 0, false, false);
  }

  private static long time(String text, long now, ZoneId zone) throws Refused {
    try {
      return ParseTime.parse(text, now, zone);
    } catch (ParseTime.Invalid e) {
      throw new Refused(e.getMessage());
    }
  }

  /** A comma list without empty items (Slurm's slurm_addto_char_list). */
  static List<String> list(String v) {
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isEmpty() && !out.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /** "name[%width],..." as sacct reads -o: names are prefixes (any case), "ALL" (or a prefix of it) is every field. */
  static List<SacctField> fields(String list) throws Refused {
    List<SacctField> out = new ArrayList<>();
    for (String spec : list.split(",")) {
      String s = spec.stripLeading();
      if (s.isEmpty()) {
        continue;
      }
      Integer width = null;
      int pct = s.indexOf('%');
      if (pct >= 0) {
        width = atoi(s.substring(pct + 1));
        s = s.substring(0, pct);
      }
      List<SacctField> chosen;
      if (!s.isEmpty() && "all".startsWith(s.toLowerCase(Locale.ROOT))) {
        chosen = SacctField.ALL;
      } else {
        final String name = s;
        chosen = List.of(SacctField.byPrefix(s).orElseThrow(
            () -> new Refused("sacct: error: Invalid field requested: \"" + name + "\"")));
      }
      for (SacctField f : chosen) {
        out.add(width == null ? f : f.withWidth(width));
      }
    }
    return out;
  }

  /** C's atoi: leading blanks, a sign, digits; anything else ends it. */
  private static int atoi(String s) {
    int i = 0;
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    boolean neg = false;
    if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      neg = s.charAt(i) == '-';
      i++;
    }
    long v = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i)) && v < Integer.MAX_VALUE) {
      v = v * 10 + s.charAt(i++) - '0';
    }
    return (int) (neg ? -v : v);
  }
}
