package org.corral.ctld.sched.limits;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;

/**
 * One cluster's associations, users and QOS as slurmdbd last gave them, with Slurm's
 * inheritance resolved: a user's association hangs under its account's, accounts under their
 * parents up to root; QOS lists, the default QOS and Max* limits come from the nearest
 * association that sets them, while a Grp* limit holds for everything under the association
 * that sets it. Immutable.
 */
public final class AssocTree {
  public static final AssocTree NONE = new AssocTree(AssocSnapshot.getDefaultInstance(), "");

  private final Map<String, AcctUser> users = new HashMap<>();
  private final Map<String, AcctAssoc> assocs = new HashMap<>();
  private final Map<String, AcctQos> qos = new HashMap<>();
  private final AssocSnapshot snapshot;
  private final boolean timeLimits;

  public AssocTree(AssocSnapshot snapshot, String cluster) {
    this.snapshot = snapshot;
    this.timeLimits = snapshot.getAssocsList().stream().map(AcctAssoc::getLimits)
        .anyMatch(l -> !l.getGrpTresMins().isEmpty() || l.hasGrpWallMinutes() || !l.getMaxTresMinsPerJob().isEmpty()
            || !l.getGrpTresRunMins().isEmpty())
        || snapshot.getQosList().stream()
        .anyMatch(q -> !q.getGrpTresMins().isEmpty() || q.hasGrpWallMinutes() || !q.getMaxTresMinsPerJob().isEmpty()
            || !q.getGrpTresRunMins().isEmpty());
    snapshot.getUsersList().forEach(u -> users.put(u.getName(), u));
    snapshot.getQosList().forEach(q -> qos.put(q.getName(), q));
    for (AcctAssoc a : snapshot.getAssocsList()) {
      if (a.getCluster().equals(cluster)) {
        assocs.put(key(a.getAccount(), a.getUser(), a.getPartition()), a);
      }
    }
  }

  private static String key(String account, String user, String partition) {
    return account + "\0" + user + "\0" + partition;
  }

  public AssocSnapshot snapshot() {
    return snapshot;
  }

  /** Some association or QOS limits time (GrpTRESMins, GrpWall, MaxTRESMins): usage must be gathered. */
  public boolean hasTimeLimits() {
    return timeLimits;
  }

  /** Nothing known: accounting never answered (and nothing was saved). */
  public boolean isEmpty() {
    return assocs.isEmpty();
  }

  /** Whether the user has some association on this cluster. */
  public boolean hasAssociation(String user) {
    return assocs.values().stream().anyMatch(a -> a.getUser().equals(user));
  }

  /** Whether the account has an association on this cluster. */
  public boolean hasAccount(String account) {
    return assocs.values().stream().anyMatch(a -> a.getAccount().equals(account));
  }

  public Optional<AcctUser> user(String name) {
    return Optional.ofNullable(users.get(name));
  }

  public Optional<AcctQos> qos(String name) {
    return Optional.ofNullable(qos.get(name));
  }

  /** The user's association for the account in the partition, else for the account in any partition. */
  public Optional<AcctAssoc> assoc(String user, String account, String partition) {
    AcctAssoc a = assocs.get(key(account, user, partition));
    return Optional.ofNullable(a != null ? a : assocs.get(key(account, user, "")));
  }

  /** The association, then the ones above it up to root (a cycle would stop the walk). */
  public List<AcctAssoc> chain(AcctAssoc a) {
    List<AcctAssoc> out = new ArrayList<>();
    out.add(a);
    AcctAssoc next = a.getUser().isEmpty() ? parent(a) : assocs.get(key(a.getAccount(), "", ""));
    while (next != null && !out.contains(next) && out.size() < 64) {
      out.add(next);
      next = parent(next);
    }
    return out;
  }

  private AcctAssoc parent(AcctAssoc account) {
    return account.getParentAccount().isEmpty() ? null : assocs.get(key(account.getParentAccount(), "", ""));
  }

  /** The QOS the association may use (inherited); empty: not restricted. */
  public List<String> allowedQos(AcctAssoc a) {
    for (AcctAssoc c : chain(a)) {
      if (c.getQosSet()) {
        return c.getQosList();
      }
    }
    return List.of();
  }

  /** The QOS a job gets when it names none: the inherited default, else normal if allowed, else the first allowed. */
  public String defaultQos(AcctAssoc a) {
    for (AcctAssoc c : chain(a)) {
      if (!c.getDefaultQos().isEmpty()) {
        return c.getDefaultQos();
      }
    }
    List<String> allowed = allowedQos(a);
    return allowed.isEmpty() || allowed.contains("normal") ? "normal" : allowed.get(0);
  }

  /** A Max* limit: the nearest association that sets it. */
  public OptionalLong max(AcctAssoc a, Function<AcctLimits, OptionalLong> limit) {
    for (AcctAssoc c : chain(a)) {
      OptionalLong v = limit.apply(c.getLimits());
      if (v.isPresent()) {
        return v;
      }
    }
    return OptionalLong.empty();
  }

  /** "cpu=4,mem=100M,node=2": CPUs, memory in MB, nodes (other TRES by name, as counts). */
  public static Map<String, Long> tres(String text) {
    Map<String, Long> out = new HashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String name = part.substring(0, eq).trim().toLowerCase(java.util.Locale.ROOT);
      String v = part.substring(eq + 1).trim().toUpperCase(java.util.Locale.ROOT);
      char unit = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
      boolean suffixed = name.equals("mem") && Character.isLetter(unit);
      try {
        long n = Long.parseLong(suffixed ? v.substring(0, v.length() - 1) : v);
        out.put(name, !suffixed ? n : switch (unit) {
          case 'K' -> n / 1024;
          case 'G' -> n * 1024;
          case 'T' -> n * 1024 * 1024;
          default -> n;
        });
      } catch (NumberFormatException e) {
        // not a limit Corral can read: ignored
      }
    }
    return out;
  }

  static OptionalLong of(boolean has, long v) {
    return has ? OptionalLong.of(v) : OptionalLong.empty();
  }

  public static OptionalLong maxJobs(AcctLimits l) {
    return of(l.hasMaxJobs(), l.getMaxJobs());
  }

  public static OptionalLong maxSubmitJobs(AcctLimits l) {
    return of(l.hasMaxSubmitJobs(), l.getMaxSubmitJobs());
  }

  public static OptionalLong maxWall(AcctLimits l) {
    return of(l.hasMaxWallMinutes(), l.getMaxWallMinutes());
  }

  public static Function<AcctLimits, OptionalLong> maxTresPerJob(String tres) {
    return l -> {
      Long v = tres(l.getMaxTresPerJob()).get(tres);
      return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    };
  }
}
