package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.Hostlist;
import org.corral.common.ReservationFlags;
import org.corral.common.SlurmError;
import org.corral.ctld.sched.ReservationWindows;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ReservationInfoReply;
import org.corral.protocol.msg.ReservationRequest;

/**
 * {@code scontrol create|update|delete reservation}: administrators (root, SlurmUser, AdminLevel
 * Operator or above) only; everyone else gets Slurm's "Invalid user id". Fields arrive parsed by
 * scontrol (see ReservationRequest); this checks them against the cluster as Slurm does: names
 * unique, nodes known, no overlap with another reservation unless OVERLAP, NodeCnt= taken from
 * the partition's nodes free over the whole window (busy ones only with IGNORE_JOBS).
 */
final class ReservationRequests {
  private final Authorizer auth;
  private final java.time.Clock clock;
  private final UserDirectory users;
  private final AssocPolicy accounting;

  ReservationRequests(Authorizer auth, java.time.Clock clock, UserDirectory users, AssocPolicy accounting) {
    this.auth = auth;
    this.clock = clock;
    this.users = users;
    this.accounting = accounting;
  }

  /**
   * Before the request goes to the writer (this may read NSS and ask slurmdbd): the requester is
   * an administrator, and the users and accounts it names are known. Users must exist ("Invalid
   * user id") and, with associations enforced, have one; accounts must be known to accounting
   * (both "Invalid account or account/partition combination specified"). {@code Users-=} takes
   * out users without an association. A create refuses {@code +=}, as the reference does.
   */
  void checkNames(Peer peer, ReservationRequest req) {
    admin(peer);
    Map<String, String> f = req.getFieldsMap();
    if (!req.getUpdate() && f.containsKey("users+")) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    if (!req.getUpdate() && f.containsKey("accounts+")) {
      throw new SlurmException(SlurmError.INVALID_ACCOUNT);
    }
    for (String key : List.of("users", "users+", "users-")) {
      for (String name : names(f.get(key), key.equals("users"), SlurmError.USER_ID_MISSING)) {
        if (users.uid(name).isEmpty()) {
          throw new SlurmException(SlurmError.USER_ID_MISSING);
        }
        if (!(req.getUpdate() && key.equals("users-"))) {
          accounting.reservationUser(name);
        }
      }
    }
    for (String key : List.of("accounts", "accounts+", "accounts-")) {
      for (String name : names(f.get(key), key.equals("accounts"), SlurmError.INVALID_ACCOUNT)) {
        accounting.reservationAccount(name);
      }
    }
  }

  /**
   * The names in a Users=/Accounts= value ({@code excluding}: all "-name" or none) or a
   * {@code +=}/{@code -=} one (no "-"); otherwise Slurm's error for the kind.
   */
  private static List<String> names(String value, boolean excluding, SlurmError bad) {
    List<String> given = list(value);
    long minus = given.stream().filter(n -> n.startsWith("-")).count();
    if (minus > 0 && (!excluding || minus < given.size())) {
      throw new SlurmException(bad);
    }
    return given.stream().map(n -> n.startsWith("-") ? n.substring(1) : n).toList();
  }

  Decision<String> create(Peer peer, ReservationRequest req, ClusterState s) {
    admin(peer);
    Map<String, String> f = req.getFieldsMap();
    long now = clock.instant().getEpochSecond();
    String name = f.getOrDefault("reservationname", "");
    if (name.isEmpty()) {
      name = (peer.userName() == null ? "slurm" : peer.userName()) + "_" + (s.reservations().created() + 1);
    }
    if (s.reservations().named(name).isPresent()) {
      throw new SlurmException(SlurmError.RESERVATION_NAME_DUP);
    }
    ReservationInfo.Builder r = ReservationInfo.newBuilder().setName(name);
    long start = f.containsKey("starttime") ? Math.max(now, number(f.get("starttime"))) : now;
    r.setStartTime(start).setEndTime(end(f, start, 0));
    r.addAllUsers(edited(List.of(), f, "users")).addAllAccounts(edited(List.of(), f, "accounts"));
    if (r.getUsersCount() == 0 && r.getAccountsCount() == 0) {
      throw new SlurmException(SlurmError.RESERVATION_EMPTY);
    }
    Set<String> flags = new LinkedHashSet<>();
    applyFlags(flags, r, f.get("flags"));
    r.setPartition(f.getOrDefault("partitionname", ""));
    placeNodes(r, flags, f, s, null);
    ReservationInfo made = r.clearFlags().addAllFlags(ReservationFlags.ordered(flags)).build();
    return Decision.of(name, new Command.CreateReservation(made, now));
  }

  Decision<String> update(Peer peer, ReservationRequest req, ClusterState s) {
    admin(peer);
    Map<String, String> f = req.getFieldsMap();
    ReservationInfo old = s.reservations().named(f.getOrDefault("reservationname", ""))
        .orElseThrow(() -> new SlurmException(SlurmError.RESERVATION_INVALID));
    long now = clock.instant().getEpochSecond();
    ReservationInfo.Builder r = old.toBuilder();
    if (f.containsKey("starttime") && old.getStartTime() <= now) {
      throw new SlurmException(SlurmError.RSV_ALREADY_STARTED);
    }
    long start = f.containsKey("starttime") ? Math.max(now, number(f.get("starttime"))) : old.getStartTime();
    r.setStartTime(start).setEndTime(end(f, start, old.getEndTime() - old.getStartTime()));
    r.clearUsers().addAllUsers(edited(old.getUsersList(), f, "users"));
    r.clearAccounts().addAllAccounts(edited(old.getAccountsList(), f, "accounts"));
    if (r.getUsersCount() == 0 && r.getAccountsCount() == 0) {
      throw new SlurmException(SlurmError.RESERVATION_EMPTY);
    }
    Set<String> flags = new LinkedHashSet<>(old.getFlagsList());
    applyFlags(flags, r, f.get("flags"));
    if (f.containsKey("partitionname")) {
      r.setPartition(f.get("partitionname"));
    }
    placeNodes(r, flags, f, s, old.getName());
    ReservationInfo changed = r.clearFlags().addAllFlags(ReservationFlags.ordered(flags)).build();
    return Decision.of(old.getName(), new Command.UpdateReservation(changed, now));
  }

  /** Refused while any job, pending or running, names the reservation (Slurm: in use). */
  Decision<Void> delete(Peer peer, String name, ClusterState s) {
    admin(peer);
    if (s.reservations().named(name).isEmpty()) {
      throw new SlurmException(SlurmError.RESERVATION_INVALID);
    }
    for (JobRecord rec : s.jobs().values()) {
      JobInfo j = rec.getInfo();
      if (name.equals(j.getReservation()) && !JobStates.isFinished(j)) {
        throw new SlurmException(SlurmError.RESERVATION_BUSY);
      }
    }
    return Decision.of(null, new Command.DeleteReservation(name, clock.instant().getEpochSecond()));
  }

  static ReservationInfoReply info(ClusterState s) {
    return ReservationInfoReply.newBuilder().setLastUpdate(s.lastUpdate())
        .addAllReservations(s.reservations().all()).build();
  }

  /** The reservations the peer may see (all, unless PrivateData=reservations hides those it cannot use). */
  ReservationInfoReply info(Peer peer, ClusterState s) {
    ReservationInfoReply.Builder b = ReservationInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    for (var r : s.reservations().all()) {
      if (auth.maySeeReservation(peer, r)) {
        b.addReservations(r);
      }
    }
    return b.build();
  }

  private void admin(Peer peer) {
    if (!auth.isAdmin(peer)) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
  }

  /** EndTime=, or the start plus Duration= (minutes), or the start plus the old length. */
  private static long end(Map<String, String> f, long start, long oldLength) {
    long end;
    if (f.containsKey("endtime")) {
      end = number(f.get("endtime"));
    } else if (f.containsKey("duration")) {
      end = start + number(f.get("duration")) * 60;
    } else if (oldLength > 0) {
      end = start + oldLength;
    } else {
      throw new SlurmException(SlurmError.INVALID_TIME_VALUE);
    }
    if (end <= start) {
      throw new SlurmException(SlurmError.INVALID_TIME_VALUE);
    }
    return end;
  }

  /**
   * The flags given applied to those there; PURGE_COMP=time sets the reservation's time, a bare
   * PURGE_COMP the default unless it had the flag already (the reference kept the time then),
   * -PURGE_COMP takes both away.
   */
  private static void applyFlags(Set<String> flags, ReservationInfo.Builder r, String given) {
    if (given == null || given.isEmpty()) {
      return;
    }
    List<String> parsed = ReservationFlags.parse(given);
    if (parsed == null) {
      throw new SlurmException(SlurmError.UNEXPECTED, "invalid reservation field");
    }
    for (String flag : parsed) {
      if (flag.startsWith("-")) {
        flags.remove(flag.substring(1));
        if (flag.equals("-" + ReservationFlags.PURGE_COMP)) {
          r.setPurgeCompTime(0);
        }
      } else if (flag.startsWith(ReservationFlags.PURGE_COMP)) {
        if (flag.startsWith(ReservationFlags.PURGE_COMP + "=")) {
          r.setPurgeCompTime(60 * Long.parseLong(flag.substring(ReservationFlags.PURGE_COMP.length() + 1)));
        } else if (!flags.contains(ReservationFlags.PURGE_COMP)) {
          r.setPurgeCompTime(ReservationFlags.PURGE_COMP_DEFAULT_S);
        }
        flags.add(ReservationFlags.PURGE_COMP);
      } else {
        flags.add(flag);
      }
    }
  }

  /**
   * Nodes= (named: SPEC_NODES) or NodeCnt= (chosen from the partition, the default one when none
   * is named), then the overlap check; an update without either keeps the nodes it had. CoreCnt=
   * reserves CPUs rather than whole nodes: with Nodes= one count per node (else "Core count for
   * reservation node list is not consistent!"), with NodeCnt= a total spread evenly (the first
   * nodes one more) or one count per node, alone a total taken from the partition's first free
   * nodes in order, each node as far as its CPUs go, as the reference placed CoreCnt=9 on
   * n[1-2] of 8-CPU nodes.
   */
  private static void placeNodes(ReservationInfo.Builder r, Set<String> flags, Map<String, String> f,
      ClusterState s, String self) {
    List<String> nodes;
    List<Integer> cores = null; // CPUs per node; null: whole nodes
    List<Integer> coreCnt = f.containsKey("corecnt") ? counts(f.get("corecnt")) : null;
    if (f.containsKey("nodes")) {
      nodes = namedNodes(f.get("nodes"), s);
      Set<String> busy = busyNodes(r, flags, s);
      if (nodes.stream().anyMatch(busy::contains)) {
        throw new SlurmException(SlurmError.NODES_BUSY);
      }
      flags.add(ReservationFlags.SPEC_NODES);
      if (coreCnt != null) {
        if (coreCnt.size() != nodes.size()) {
          throw new SlurmException(SlurmError.INVALID_CORE_CNT);
        }
        cores = coreCnt;
      }
    } else if (f.containsKey("nodecnt") || coreCnt != null) {
      PartitionInfo p = (r.getPartition().isEmpty() ? s.defaultPartition() : s.partition(r.getPartition()))
          .orElseThrow(() -> new SlurmException(SlurmError.INVALID_PARTITION_NAME));
      r.setPartition(p.getName());
      flags.remove(ReservationFlags.SPEC_NODES);
      if (f.containsKey("nodecnt")) {
        int count = (int) number(f.get("nodecnt"));
        nodes = chooseNodes(p, count, r, flags, s, self);
        if (coreCnt != null) {
          cores = spread(coreCnt, count);
        }
      } else {
        if (coreCnt.size() != 1) {
          throw new SlurmException(SlurmError.INVALID_CORE_CNT);
        }
        nodes = new ArrayList<>();
        cores = new ArrayList<>();
        int left = coreCnt.get(0);
        for (String name : freeNodes(p, r, flags, s, self)) {
          if (left == 0) {
            break;
          }
          int take = Math.min(left, s.node(name).map(NodeInfo::getCpus).orElse(0));
          if (take > 0) {
            nodes.add(name);
            cores.add(take);
            left -= take;
          }
        }
        if (left > 0) {
          throw new SlurmException(SlurmError.NODES_BUSY);
        }
      }
    } else if (self != null) {
      nodes = r.getNodeNamesList();
      cores = r.getNodeCoresCount() == 0 ? null : List.copyOf(r.getNodeCoresList());
    } else {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
    if (!flags.contains(ReservationFlags.OVERLAP)
        && ReservationWindows.overlapping(s.reservations().all(), nodes, r.getStartTime(), r.getEndTime(), self)) {
      throw new SlurmException(SlurmError.RESERVATION_OVERLAP);
    }
    int cpus = 0;
    for (int i = 0; i < nodes.size(); i++) {
      int all = s.node(nodes.get(i)).map(NodeInfo::getCpus).orElse(0);
      if (cores != null && (cores.get(i) <= 0 || cores.get(i) > all)) {
        throw new SlurmException(SlurmError.INVALID_CORE_CNT);
      }
      cpus += cores == null ? all : cores.get(i);
    }
    r.clearNodeNames().addAllNodeNames(nodes).setCoreCnt(cpus).clearNodeCores();
    if (cores != null) {
      r.addAllNodeCores(cores);
    }
  }

  /** CoreCnt= with NodeCnt=: one count per node, or a total spread evenly, the first nodes one more. */
  private static List<Integer> spread(List<Integer> coreCnt, int count) {
    if (coreCnt.size() == count) {
      return coreCnt;
    }
    if (coreCnt.size() != 1) {
      throw new SlurmException(SlurmError.INVALID_CORE_CNT);
    }
    int total = coreCnt.get(0);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(total / count + (i < total % count ? 1 : 0));
    }
    return out;
  }

  private static List<Integer> counts(String v) {
    List<Integer> out = new ArrayList<>();
    for (String c : list(v)) {
      long n = number(c.trim());
      if (n <= 0 || n > Integer.MAX_VALUE) {
        throw new SlurmException(SlurmError.INVALID_CORE_CNT);
      }
      out.add((int) n);
    }
    if (out.isEmpty()) {
      throw new SlurmException(SlurmError.INVALID_CORE_CNT);
    }
    return out;
  }

  private static List<String> namedNodes(String expr, ClusterState s) {
    if (expr.equalsIgnoreCase("ALL")) {
      return List.copyOf(s.nodeOrder());
    }
    Set<String> wanted;
    try {
      wanted = new HashSet<>(Hostlist.expand(expr));
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
    for (String n : wanted) {
      if (s.node(n).isEmpty()) {
        throw new SlurmException(SlurmError.INVALID_NODE_NAME);
      }
    }
    return s.nodeOrder().stream().filter(wanted::contains).toList();
  }

  /**
   * The first {@code count} of the partition's nodes that are up, in no other reservation then
   * (unless OVERLAP) and, unless IGNORE_JOBS, run no job into the window.
   */
  private static List<String> chooseNodes(PartitionInfo p, int count, ReservationInfo.Builder r,
      Set<String> flags, ClusterState s, String self) {
    if (count <= 0) {
      throw new SlurmException(SlurmError.INVALID_NODE_COUNT);
    }
    List<String> free = freeNodes(p, r, flags, s, self);
    if (free.size() < count) {
      throw new SlurmException(SlurmError.NODES_BUSY);
    }
    return List.copyOf(free.subList(0, count));
  }

  /** The partition's nodes, in its order, a reservation may take (see {@link #chooseNodes}). */
  private static List<String> freeNodes(PartitionInfo p, ReservationInfo.Builder r, Set<String> flags,
      ClusterState s, String self) {
    Set<String> busy = busyNodes(r, flags, s);
    List<String> out = new ArrayList<>();
    for (String name : p.getNodeNamesList()) {
      NodeInfo n = s.node(name).orElse(null);
      if (n == null || busy.contains(name) || n.getDrain() || n.getFail()
          || n.getBaseState() == org.corral.protocol.msg.NodeBaseState.NODE_DOWN) {
        continue;
      }
      if (flags.contains(ReservationFlags.OVERLAP) || !ReservationWindows.overlapping(
          s.reservations().all(), List.of(name), r.getStartTime(), r.getEndTime(), self)) {
        out.add(name);
      }
    }
    return out;
  }

  /**
   * Users= or Accounts= ({@code key}) as the request leaves it: a value given replaces it;
   * {@code KEY+=} adds names, {@code KEY-=} takes them out (from an empty list: excludes them),
   * as the reference did. Added to a "-name" list, a user is excluded too, while an account
   * turns it into a list of the accounts added.
   */
  private static List<String> edited(List<String> old, Map<String, String> f, String key) {
    if (f.containsKey(key)) {
      return list(f.get(key));
    }
    Set<String> out = new LinkedHashSet<>(old);
    boolean excluding = !old.isEmpty() && old.get(0).startsWith("-");
    if (excluding && key.equals("accounts") && f.containsKey(key + "+")) {
      out.clear();
      excluding = false;
    }
    for (String name : list(f.get(key + "+"))) {
      out.add(excluding ? "-" + name : name);
    }
    for (String name : list(f.get(key + "-"))) {
      if (old.isEmpty()) {
        out.add("-" + name);
      } else {
        out.remove(name);
        out.remove("-" + name);
      }
    }
    return List.copyOf(out);
  }

  /** The nodes jobs outside the reservation hold into its window; none with IGNORE_JOBS. */
  private static Set<String> busyNodes(ReservationInfo.Builder r, Set<String> flags, ClusterState s) {
    Set<String> busy = new HashSet<>();
    if (!flags.contains(ReservationFlags.IGNORE_JOBS)) {
      for (JobRecord rec : s.jobs().values()) {
        JobInfo j = rec.getInfo();
        if (JobStates.holdsResources(j) && (j.getEndTime() == 0 || j.getEndTime() > r.getStartTime())
            && !r.getName().equals(j.getReservation())) {
          j.getAllocationList().forEach(a -> busy.add(a.getNode()));
        }
      }
    }
    return busy;
  }

  private static long number(String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new SlurmException(SlurmError.UNEXPECTED, "invalid reservation field");
    }
  }

  private static List<String> list(String v) {
    return v == null || v.isEmpty() ? List.of() : List.of(v.split(","));
  }
}
