package org.corral.protocol;

import java.util.Locale;
import org.corral.protocol.msg.NodeInfo;

/**
 * A node's displayed state, derived from its base state, flags and allocations: IDLE with all
 * CPUs allocated is ALLOCATED, with some MIXED. Names as scontrol (IDLE+DRAIN), sinfo %T
 * (drained, draining) and sinfo %t (drain, drng, mix, alloc) print them.
 */
public final class NodeStates {
  private NodeStates() {}

  /** Base states in Slurm's numeric order; {@link #sortKey} sorts on it. */
  public enum Base {
    UNKNOWN("unknown", "unk"), DOWN("down", "down"), IDLE("idle", "idle"),
    ALLOCATED("allocated", "alloc"), ERROR("error", "err"), MIXED("mixed", "mix"),
    FUTURE("future", "futr");

    final String lower;
    final String compact;

    Base(String lower, String compact) {
      this.lower = lower;
      this.compact = compact;
    }
  }

  private static final int DRAIN_FLAG = 0x200;
  private static final int NO_RESPOND_FLAG = 0x800;
  private static final int FAIL_FLAG = 0x2000;

  public static Base base(NodeInfo n) {
    return switch (n.getBaseState()) {
      case NODE_DOWN -> Base.DOWN;
      case NODE_FUTURE -> Base.FUTURE;
      case NODE_UNKNOWN -> Base.UNKNOWN;
      case NODE_IDLE, UNRECOGNIZED -> {
        if (n.getCpus() > 0 && n.getAllocCpus() >= n.getCpus()) {
          yield Base.ALLOCATED;
        }
        if (n.getAllocCpus() > 0) {
          yield Base.MIXED;
        }
        yield n.getRunningJobs() > 0 ? Base.ALLOCATED : Base.IDLE;
      }
    };
  }

  /** Whether the node is busy: draining rather than drained. */
  private static boolean busy(Base b) {
    return b == Base.ALLOCATED || b == Base.MIXED;
  }

  /** scontrol's State=: {@code IDLE}, {@code MIXED+DRAIN}, {@code DOWN*+DRAIN}. */
  public static String scontrol(NodeInfo n) {
    StringBuilder sb = new StringBuilder(base(n).name());
    if (n.getNotResponding()) {
      sb.append('*');
    }
    if (n.getDrain()) {
      sb.append("+DRAIN");
    }
    if (n.getFail()) {
      sb.append("+FAIL");
    }
    if (n.getMaint()) {
      sb.append("+MAINTENANCE");
    }
    if (n.getReserved()) {
      sb.append("+RESERVED");
    }
    return sb.toString();
  }

  /** sinfo's %T: {@code idle}, {@code drained}, {@code draining}, {@code fail}, {@code down*}. */
  public static String full(NodeInfo n) {
    Base b = base(n);
    String s = n.getDrain() ? (busy(b) ? "draining" : "drained")
        : n.getFail() ? (busy(b) ? "failing" : "fail") : reserved(n, b, "maint", "reserved", b.lower);
    return n.getNotResponding() ? s + "*" : s;
  }

  /** sinfo's %t: {@code idle}, {@code drain}, {@code drng}, {@code failg}, {@code mix}, {@code unk*}. */
  public static String compact(NodeInfo n) {
    Base b = base(n);
    String s = n.getDrain() ? (busy(b) ? "drng" : "drain")
        : n.getFail() ? (busy(b) ? "failg" : "fail") : reserved(n, b, "maint", "resv", b.compact);
    return n.getNotResponding() ? s + "*" : s;
  }

  /**
   * An idle node in an active reservation shows it (maint, resv/reserved); a busy one keeps its
   * base name, marked "$" when the reservation is MAINT (mix$), as the reference shows them.
   */
  private static String reserved(NodeInfo n, Base b, String maint, String resv, String name) {
    if (b == Base.IDLE && (n.getMaint() || n.getReserved())) {
      return n.getMaint() ? maint : resv;
    }
    return n.getMaint() ? name + "$" : name;
  }

  /** Slurm's numeric state (base | flags): sinfo's -t sort order. */
  public static int sortKey(NodeInfo n) {
    return base(n).ordinal() | (n.getDrain() ? DRAIN_FLAG : 0)
        | (n.getNotResponding() ? NO_RESPOND_FLAG : 0) | (n.getFail() ? FAIL_FLAG : 0);
  }

  /** Whether the node's resources are unusable (sinfo's "other" in A/I/O/T). */
  public static boolean unavailable(NodeInfo n) {
    Base b = base(n);
    return n.getDrain() || n.getFail() || b == Base.DOWN || b == Base.UNKNOWN || b == Base.FUTURE
        || b == Base.ERROR || n.getNotResponding();
  }

  /**
   * Whether the node matches one word of sinfo -t (case-insensitive): a base state by name or
   * compact name, DRAIN (draining or drained), DRAINED, DRAINING, NO_RESPOND. ALLOCATED also
   * takes MIXED nodes: the controller's base state of a partly used node is ALLOCATED (MIXED is
   * what sinfo prints), and Slurm's -t filters on the base state.
   */
  public static boolean matches(NodeInfo n, String word) {
    String w = word.toLowerCase(Locale.ROOT);
    Base b = base(n);
    return switch (w) {
      case "drain" -> n.getDrain();
      case "drained" -> n.getDrain() && !busy(b);
      case "draining" -> n.getDrain() && busy(b);
      case "no_respond" -> n.getNotResponding();
      case "fail" -> n.getFail();
      case "futr" -> b == Base.FUTURE;
      case "allocated", "alloc" -> busy(b);
      default -> w.equals(b.lower) || w.equals(b.compact);
    };
  }

  /** Whether {@link #matches} knows the word. */
  public static boolean isStateWord(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    if (w.equals("drain") || w.equals("drained") || w.equals("draining") || w.equals("no_respond")
        || w.equals("fail")) {
      return true;
    }
    for (Base b : Base.values()) {
      if (w.equals(b.lower) || w.equals(b.compact)) {
        return true;
      }
    }
    return false;
  }
}
