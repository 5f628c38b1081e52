package org.corral.protocol;

import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.NodeEvent;

/**
 * Node and cluster events as accounting keeps them: Slurm's node state bits (what sacctmgr show
 * event prints as StateRaw) and the one rule for which events a query selects, used by slurmdbd.
 */
public final class NodeEvents {
  private NodeEvents() {}

  // Slurm 22.05's node states: a base state in the low four bits, flags above.
  public static final int DOWN = 1;
  public static final int IDLE = 2;
  public static final int ALLOCATED = 3;
  public static final int MIXED = 5;
  public static final int FUTURE = 6;
  public static final int BASE = 0xf;
  public static final int FLAG_RES = 0x20;
  public static final int FLAG_DRAIN = 0x200;
  public static final int FLAG_COMPLETING = 0x400;
  public static final int FLAG_NO_RESPOND = 0x800;
  public static final int FLAG_POWERED_DOWN = 0x1000;
  public static final int FLAG_FAIL = 0x2000;
  public static final int FLAG_MAINT = 0x8000;

  /** reason_uid of an event the controller caused itself: slurmdbd stores its SlurmUser. */
  public static final int BY_CONTROLLER = 0xFFFFFFFE;

  /** The CPUs of an event's TRES ("billing=8,cpu=8,mem=4000M"), 0 when it names none. */
  public static long cpus(String tres) {
    for (String p : tres.split(",")) {
      if (p.startsWith("cpu=")) {
        try {
          return Long.parseLong(p.substring(4));
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  /**
   * Whether {@code e} is one of the events {@code q} asks for (its cluster aside). The time
   * window keeps the events that began before its end and had not ended before its start.
   */
  public static boolean matches(EventQueryRequest q, NodeEvent e) {
    boolean node = !e.getNode().isEmpty();
    // States= and User= make it node events only, as in Slurm; Event= picks one kind or both
    boolean nodeOnly = q.getStatesCount() > 0 || q.getUserIdsCount() > 0;
    boolean nodes = nodeOnly || q.getNodeEvents() || !q.getClusterEvents();
    boolean clusters = !nodeOnly && (q.getClusterEvents() || !q.getNodeEvents());
    if (node ? !nodes : !clusters) {
      return false;
    }
    if (q.getOpenOnly()) {
      if (e.getTimeEnd() != 0) {
        return false;
      }
    } else {
      if (q.getEnd() > 0 && e.getTimeStart() >= q.getEnd()) {
        return false;
      }
      if (e.getTimeEnd() != 0 && e.getTimeEnd() < q.getStart()) {
        return false;
      }
    }
    if (q.getNodesCount() > 0 && !q.getNodesList().contains(e.getNode())) {
      return false;
    }
    if (q.getStatesCount() > 0 && q.getStatesList().stream().noneMatch(s -> inState(e.getState(), s))) {
      return false;
    }
    if (q.getUserIdsCount() > 0 && !q.getUserIdsList().contains(e.getReasonUid())) {
      return false;
    }
    String reason = e.getReason().toLowerCase(java.util.Locale.ROOT); // Slurm matches it as MySQL's LIKE does
    if (q.getReasonsCount() > 0
        && q.getReasonsList().stream().noneMatch(r -> reason.contains(r.toLowerCase(java.util.Locale.ROOT)))) {
      return false;
    }
    long cpus = cpus(e.getTres());
    return (q.getMinCpus() == 0 || cpus >= q.getMinCpus()) && (q.getMaxCpus() == 0 || cpus <= q.getMaxCpus());
  }

  /** A state as States= names it: a flag the event's state has, or its base state. */
  static boolean inState(int state, int wanted) {
    return wanted > BASE ? (state & wanted) != 0 : (state & BASE) == wanted;
  }
}
