package org.corral.cli.sacctmgr;

import org.corral.common.SlurmError;
import java.io.IOException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.corral.cli.Cli;
import org.corral.cli.format.LocalCluster;
import org.corral.cli.format.ParseTime;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.sacctmgr.Table.Column;
import org.corral.common.Hostlist;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.NodeEvent;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code sacctmgr show event [Start= End= Nodes= Event=Node|Cluster States= Reason= User=
 * MinCPUs= MaxCPUs= Clusters= CondFlags=Open All_Time Format=]}: the node and cluster events
 * slurmdbd keeps, in Slurm's columns. By default the events since midnight of the day before;
 * with States= and no Start=, the events still open in those states.
 */
final class Events {
  private final Cli cli;
  private final UserDirectory users;
  private final ZoneId zone;

  Events(Cli cli, UserDirectory users) {
    this.cli = cli;
    this.users = users;
    this.zone = cli.clock().getZone();
  }

  /** Thrown for a condition sacctmgr refuses: its message is printed, exit code 1. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  int show(List<String> words, Table.Style style, boolean header) throws IOException {
    long now = cli.clock().instant().getEpochSecond();
    EventQueryRequest.Builder q = EventQueryRequest.newBuilder();
    List<String> format = new ArrayList<>();
    boolean startGiven = false;
    try {
      for (String w : words) {
        int eq = w.indexOf('=');
        String key = (eq < 0 ? w : w.substring(0, eq)).toLowerCase(Locale.ROOT);
        String value = eq < 0 ? "" : w.substring(eq + 1);
        if (eq < 0) {
          if (key.equals("where") || key.equals("set")) {
            continue;
          } else if (is(key, "all_time", 5)) {
            startGiven = true;
          } else if (is(key, "all_clusters", 5)) {
            continue; // one cluster is all Corral's slurmdbd knows of here
          } else {
            eventType(q, w);
          }
        } else if (is(key, "clusters", 1)) {
          q.addAllClusters(List.of(value.split(",")));
        } else if (is(key, "condflags", 2)) {
          q.setOpenOnly(value.toLowerCase(Locale.ROOT).contains("open"));
        } else if (is(key, "end", 2)) {
          long t = time(value, now);
          q.setEnd(t < 0 ? 0 : t);
        } else if (is(key, "event", 2)) {
          eventType(q, value);
        } else if (is(key, "format", 1)) {
          format.addAll(List.of(value.split(",")));
        } else if (is(key, "maxcpus", 4)) {
          q.setMaxCpus(cpus("MaxCpus", value));
        } else if (is(key, "mincpus", 4)) {
          q.setMinCpus(cpus("MinCpus", value));
        } else if (is(key, "nodes", 1)) {
          q.addAllNodes(Hostlist.expand(value));
        } else if (is(key, "reason", 1)) {
          q.addAllReasons(List.of(value.split(",")));
        } else if (is(key, "start", 4)) {
          long t = time(value, now);
          if (t >= 0) {
            q.setStart(t);
            startGiven = true;
          }
        } else if (is(key, "states", 4)) {
          for (String s : value.split(",")) {
            q.addStates(state(s));
          }
        } else if (is(key, "user", 1)) {
          for (String u : value.split(",")) {
            q.addUserIds(uid(u));
          }
        } else {
          throw new Refused(" Unknown condition: " + w);
        }
      }
    } catch (Refused e) {
      cli.err().println(e.getMessage());
      return 1;
    } catch (org.corral.common.InvalidHostlistException e) {
      cli.err().println(" Unknown condition: " + e.getMessage());
      return 1;
    }
    if (!startGiven) {
      if (q.getStatesCount() > 0) {
        q.setOpenOnly(true);
      } else {
        q.setStart(ZonedDateTime.ofInstant(cli.clock().instant(), zone).toLocalDate().minusDays(1)
            .atStartOfDay(zone).toEpochSecond());
      }
    }
    if (q.getClustersCount() == 0) {
      q.addAllClusters(LocalCluster.of(cli.env()));
    }
    boolean clusterOnly = q.getClusterEvents() && !q.getNodeEvents();
    return Table.printSelected(cli, columns(now), format, List.of((clusterOnly
        ? "cluster,tres,start,end,clusternodes" : "cluster,nodename,start,end,state,reason,user").split(",")), () -> {
          Response r = cli.accounting().get().call(Request.newBuilder().setEventQuery(q).build());
          if (r.getErrorCode() == SlurmError.ACCESS_DENIED.code()) { // PrivateData=events
            throw new SacctmgrCommand.Denied("Error with request: " + SlurmError.ACCESS_DENIED.message());
          }
          if (r.getErrorCode() != 0) {
            throw new IOException(r.getErrorMessage());
          }
          return r.getEventQuery().getEventsList();
        }, style, header);
  }

  /** A keyword given as at least {@code min} letters of {@code name} (lower case). */
  static boolean is(String word, String name, int min) {
    return word.length() >= min && name.startsWith(word);
  }

  private static void eventType(EventQueryRequest.Builder q, String v) throws Refused {
    String l = v.toLowerCase(Locale.ROOT);
    if (!l.isEmpty() && "node".startsWith(l)) {
      q.setNodeEvents(true);
    } else if (!l.isEmpty() && "cluster".startsWith(l)) {
      q.setClusterEvents(true);
    } else {
      throw new Refused(" Unknown event type: '" + v + "'  Valid events are Cluster and Node.");
    }
  }

  /** A time as Start=/End= take it; -1 (after saying so) when it is not one, as Slurm goes on. */
  private long time(String v, long now) {
    try {
      return ParseTime.parse(v, now, zone);
    } catch (ParseTime.Invalid e) {
      cli.err().println(e.getMessage());
      return -1;
    }
  }

  private int cpus(String name, String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      cli.error("error: Invalid value for " + name + " (" + v + ")");
      return 0;
    }
  }

  /** The node states States= takes, in Slurm's order (ERROR has no name). */
  private static final String[] STATES = {"DRAIN", "FAIL", "UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "?", "MIXED", "FUTURE"};
  private static final int[] STATE_BITS = {NodeEvents.FLAG_DRAIN, NodeEvents.FLAG_FAIL, 0, NodeEvents.DOWN,
      NodeEvents.IDLE, NodeEvents.ALLOCATED, 4, NodeEvents.MIXED, NodeEvents.FUTURE};

  private int state(String s) throws Refused {
    for (int i = 0; i < STATES.length; i++) {
      if (STATES[i].equalsIgnoreCase(s) && !STATES[i].equals("?")) {
        return STATE_BITS[i];
      }
    }
    cli.err().println("Invalid state: " + s);
    cli.err().println("Valid node states are: " + String.join(" ", STATES) + " ");
    throw new Refused(cli.program() + ": fatal: unrecognized job state value");
  }

  private int uid(String u) throws Refused {
    OptionalInt id = users.uidOf(u);
    if (id.isPresent()) {
      return id.getAsInt();
    }
    try {
      return Integer.parseInt(u);
    } catch (NumberFormatException e) {
      throw new Refused(cli.program() + ": error: Invalid user id: " + u);
    }
  }

  private static Column<NodeEvent> col(String header, int width, String names,
      java.util.function.Function<NodeEvent, String> value) {
    return new Column<>(header, width, List.of(names.split(",")), value);
  }

  private List<Column<NodeEvent>> columns(long now) {
    return List.of(
        col("Cluster", 10, "cluster", NodeEvent::getCluster),
        col("Cluster Nodes", 20, "clusternodes", NodeEvent::getClusterNodes),
        col("Duration", 13, "duration", e -> SlurmTimes.hms((e.getTimeEnd() > 0 ? e.getTimeEnd() : now) - e.getTimeStart())),
        col("TimeEnd", 19, "end,timeend", e -> SlurmTimes.iso(e.getTimeEnd(), zone, "Unknown")),
        col("Event", 7, "event", e -> e.getNode().isEmpty() ? "Cluster" : "Node"),
        col("EventRaw", 8, "eventraw", e -> e.getNode().isEmpty() ? "1" : "2"),
        col("NodeName", -15, "nodename", NodeEvent::getNode),
        col("Reason", 30, "reason", NodeEvent::getReason),
        col("TimeStart", 19, "start,timestart", e -> SlurmTimes.iso(e.getTimeStart(), zone, "Unknown")),
        col("State", 6, "state", e -> e.getNode().isEmpty() ? "" : stateName(e.getState())),
        col("StateRaw", 8, "stateraw", e -> Integer.toUnsignedString(e.getState())),
        col("TRES", 20, "tres", NodeEvent::getTres),
        col("User", 10, "user", e -> e.getNode().isEmpty() ? "" : user(e.getReasonUid())));
  }

  private String user(int uid) {
    return users.nameOf(uid).orElse(Integer.toUnsignedString(uid)) + "(" + Integer.toUnsignedString(uid) + ")";
  }

  /** Slurm's compact node state: DOWN, DRAIN, DRNG, FAIL, FAILG, IDLE, ..., '*' not responding, '$' maintenance. */
  static String stateName(int s) {
    int base = s & NodeEvents.BASE;
    boolean busy = base == NodeEvents.ALLOCATED || base == NodeEvents.MIXED || (s & NodeEvents.FLAG_COMPLETING) != 0;
    String name;
    if ((s & NodeEvents.FLAG_DRAIN) != 0) {
      name = busy ? "DRNG" : "DRAIN";
    } else if ((s & NodeEvents.FLAG_FAIL) != 0) {
      name = busy ? "FAILG" : "FAIL";
    } else {
      name = switch (base) {
        case NodeEvents.DOWN -> "DOWN";
        case NodeEvents.IDLE -> "IDLE";
        case NodeEvents.ALLOCATED -> "ALLOC";
        case NodeEvents.MIXED -> "MIX";
        case NodeEvents.FUTURE -> "FUTR";
        default -> "UNK";
      };
    }
    if ((s & NodeEvents.FLAG_NO_RESPOND) != 0) {
      return name + "*";
    }
    return (s & NodeEvents.FLAG_MAINT) != 0 ? name + "$" : name;
  }
}
