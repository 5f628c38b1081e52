package org.corral.ctld.sched.limits;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/**
 * The limits on time (AccountingStorageEnforce=limits, stricter with safe): MaxTRESMins per job
 * (CPU and node minutes of its time limit), and GrpTRESMins (cpu, mem, node, billing, gres/NAME...
 * minutes, {@link JobTres}) and GrpWall over the
 * decayed usage of an association's subtree or of a QOS. Without safe a job waits once that
 * usage has reached the limit (it may then run past it); with safe it waits unless the usage,
 * what running jobs may still use within their time limits and its own time limit all fit, so a
 * job that starts can always finish. As Slurm, a Grp limit on the root association is not enforced.
 */
final class TimeLimitCheck {
  private final AssocTree tree;
  private final boolean safe;
  private final long now;
  private final Map<Integer, TimeUsage.Used> usedUnder = new HashMap<>();  // association id -> at or below it
  private final Map<String, TimeUsage.Used> qosUsed;
  private final Map<Integer, TimeUsage.Used> leftUnder = new HashMap<>();  // what running jobs may still use
  private final Map<String, TimeUsage.Used> qosLeft = new HashMap<>();

  TimeLimitCheck(AssocTree tree, TimeUsage usage, boolean safe, long now) {
    this.tree = tree;
    this.safe = safe;
    this.now = now;
    this.qosUsed = usage.byQos();
    usage.byAssoc().forEach((o, used) -> tree.assoc(o.user(), o.account(), o.partition())
        .ifPresent(a -> tree.chain(a).forEach(c -> usedUnder.merge(c.getId(), used, TimeUsage.Used::plus))));
  }

  /** Counts what a running job (or one this pass starts) may still use (safe; GrpTRESRunMins). */
  void started(JobInfo j, String qos, AcctAssoc assoc) {
    TimeUsage.Used left = left(j);
    qosLeft.merge(qos, left, TimeUsage.Used::plus);
    if (assoc != null) {
      tree.chain(assoc).forEach(c -> leftUnder.merge(c.getId(), left, TimeUsage.Used::plus));
    }
  }

  private TimeUsage.Used left(JobInfo j) {
    long secs = limitSecs(j);
    if (j.getState() != JobState.PENDING && j.getStartTime() > 0 && j.getStartTime() <= now) {
      secs = Math.max(0, j.getStartTime() + secs - now);
    }
    return TimeUsage.Used.of(JobTres.of(j), secs);
  }

  /** The QOS's time limit the job waits on, or null. */
  String qosBlocked(JobInfo j, AcctQos q) {
    String perJob = perJob(j, q.getMaxTresMinsPerJob(), "QOSMaxCpuMinutesPerJobLimit", "QOSMaxNodeMinutesPerJob");
    if (perJob != null) {
      return perJob;
    }
    TimeUsage.Used used = qosUsed.getOrDefault(q.getName(), TimeUsage.Used.ZERO);
    TimeUsage.Used left = qosLeft.getOrDefault(q.getName(), TimeUsage.Used.ZERO);
    String tresMins = grpTresMins(q.getGrpTresMins(), used, left, left(j), "QOS");
    if (tresMins != null) {
      return tresMins;
    }
    String runMins = grpTresRunMins(q.getGrpTresRunMins(), left, left(j), "QOS");
    if (runMins != null) {
      return runMins;
    }
    if (q.hasGrpWallMinutes() && over(used.wallSecs(), left.wallSecs(), left(j).wallSecs(), q.getGrpWallMinutes())) {
      return "QOSGrpWallLimit";
    }
    return null;
  }

  /** The association's (or an ancestor's) time limit the job waits on, or null. */
  String assocBlocked(JobInfo j, AcctAssoc a) {
    OptionalLong cpu = tree.max(a, maxMins("cpu"));
    OptionalLong node = tree.max(a, maxMins("node"));
    long minutes = limitSecs(j) / 60;
    if (cpu.isPresent() && minutes * j.getNumCpus() > cpu.getAsLong()) {
      return "AssocMaxCpuMinutesPerJobLimit";
    }
    if (node.isPresent() && minutes * j.getNumNodes() > node.getAsLong()) {
      return "AssocMaxNodeMinutesPerJob";
    }
    TimeUsage.Used mine = left(j);
    List<AcctAssoc> chain = tree.chain(a);
    for (AcctAssoc c : chain) {
      if (c.getUser().isEmpty() && c.getParentAccount().isEmpty()) {
        continue; // the root association: its Grp limits are not enforced
      }
      TimeUsage.Used used = usedUnder.getOrDefault(c.getId(), TimeUsage.Used.ZERO);
      TimeUsage.Used left = leftUnder.getOrDefault(c.getId(), TimeUsage.Used.ZERO);
      AcctLimits l = c.getLimits();
      String tresMins = grpTresMins(l.getGrpTresMins(), used, left, mine, "Assoc");
      if (tresMins != null) {
        return tresMins;
      }
      String runMins = grpTresRunMins(l.getGrpTresRunMins(), left, mine, "Assoc");
      if (runMins != null) {
        return runMins;
      }
      if (l.hasGrpWallMinutes() && over(used.wallSecs(), left.wallSecs(), mine.wallSecs(), l.getGrpWallMinutes())) {
        return "AssocGrpWallLimit";
      }
    }
    return null;
  }

  /** Slurm's order of the TRES it checks first (their ids); gres/, license/ and the like after, by name. */
  private static final List<String> FIRST = List.of("cpu", "mem", "energy", "node", "billing");

  /** The GrpTRESMins limit of these the usage breaks, as Slurm's reason (prefix Assoc or QOS), or null. */
  private String grpTresMins(String limits, TimeUsage.Used used, TimeUsage.Used left, TimeUsage.Used mine,
      String prefix) {
    Map<String, Long> max = AssocTree.tres(limits);
    for (String n : inSlurmsOrder(max)) {
      if (over(used.secs(n), left.secs(n), mine.secs(n), max.get(n))) {
        return prefix + minutesReason(n, prefix);
      }
    }
    return null;
  }

  private static List<String> inSlurmsOrder(Map<String, Long> limits) {
    List<String> names = new java.util.ArrayList<>(limits.keySet());
    names.sort(java.util.Comparator.comparingInt((String n) -> FIRST.contains(n) ? FIRST.indexOf(n) : FIRST.size())
        .thenComparing(n -> n));
    return names;
  }

  /**
   * The GrpTRESMins limit of a running job's QOS or association (or an ancestor's) whose usage
   * has reached it for a TRES the job holds, or the GrpWall limit whose usage has reached it, as
   * Slurm's reason (the QOS first, each with TRES minutes before wall); null when none has. Slurm
   * kills such jobs (acct_policy_job_time_out) unless AccountingStorageEnforce has safe.
   */
  String exhausted(JobInfo j, AcctQos q, AcctAssoc a) {
    Map<String, Long> holds = JobTres.of(j);
    if (q != null) {
      TimeUsage.Used used = qosUsed.getOrDefault(q.getName(), TimeUsage.Used.ZERO);
      String r = reached(q.getGrpTresMins(), used, holds, "QOS");
      if (r != null) {
        return r;
      }
      if (q.hasGrpWallMinutes() && used.wallSecs() >= q.getGrpWallMinutes() * 60.0) {
        return "QOSGrpWallLimit";
      }
    }
    for (AcctAssoc c : a == null ? List.<AcctAssoc>of() : tree.chain(a)) {
      if (c.getUser().isEmpty() && c.getParentAccount().isEmpty()) {
        continue; // the root association: its Grp limits are not enforced
      }
      TimeUsage.Used used = usedUnder.getOrDefault(c.getId(), TimeUsage.Used.ZERO);
      String r = reached(c.getLimits().getGrpTresMins(), used, holds, "Assoc");
      if (r != null) {
        return r;
      }
      if (c.getLimits().hasGrpWallMinutes() && used.wallSecs() >= c.getLimits().getGrpWallMinutes() * 60.0) {
        return "AssocGrpWallLimit";
      }
    }
    return null;
  }

  private static String reached(String limits, TimeUsage.Used used, Map<String, Long> holds, String prefix) {
    Map<String, Long> max = AssocTree.tres(limits);
    for (String n : inSlurmsOrder(max)) {
      if (holds.getOrDefault(n, 0L) > 0 && used.secs(n) >= max.get(n) * 60.0) {
        return prefix + minutesReason(n, prefix);
      }
    }
    return null;
  }

  /**
   * The GrpTRESRunMins limit of these that running jobs' TRES times their time left, with this
   * job's TRES times its time limit, exceed, as Slurm's reason (prefix Assoc or QOS), or null.
   * Counted with and without safe, as Slurm does.
   */
  private static String grpTresRunMins(String limits, TimeUsage.Used running, TimeUsage.Used mine, String prefix) {
    Map<String, Long> max = AssocTree.tres(limits);
    for (String n : inSlurmsOrder(max)) {
      if (mine.secs(n) > 0 && running.secs(n) + mine.secs(n) > max.get(n) * 60.0) {
        return prefix + runMinutesReason(n, prefix);
      }
    }
    return null;
  }

  /** Slurm's reason for a GrpTRESRunMins TRES, without its Assoc/QOS prefix. */
  private static String runMinutesReason(String tres, String prefix) {
    return reason(tres, prefix, "RunMinutes");
  }

  /** Slurm's reason for a GrpTRESMins TRES, without its Assoc/QOS prefix. */
  private static String minutesReason(String tres, String prefix) {
    return reason(tres, prefix, "Minutes");
  }

  /** "GrpCPUMinutesLimit", "GrpMemoryRunMinutes" (QOS) or "GrpMemRunMinutes" (Assoc), "GrpGRESMinutes"... */
  private static String reason(String tres, String prefix, String kind) {
    return switch (tres) {
      case "cpu" -> "GrpCPU" + kind + "Limit";
      case "mem" -> (prefix.equals("QOS") ? "GrpMemory" : "GrpMem") + kind;
      case "energy" -> "GrpEnergy" + kind;
      case "node" -> "GrpNode" + kind;
      case "billing" -> "GrpBilling" + kind;
      default -> (tres.startsWith("gres/") ? "GrpGRES" : tres.startsWith("license/") ? "GrpLicense"
          : tres.startsWith("bb/") ? "GrpBB" : "GrpUnknown") + kind;
    };
  }

  private String perJob(JobInfo j, String limits, String cpuReason, String nodeReason) {
    Map<String, Long> max = AssocTree.tres(limits);
    long minutes = limitSecs(j) / 60;
    if (max.containsKey("cpu") && minutes * j.getNumCpus() > max.get("cpu")) {
      return cpuReason;
    }
    return max.containsKey("node") && minutes * j.getNumNodes() > max.get("node") ? nodeReason : null;
  }

  /** The job's time limit in seconds (UNLIMITED counts as a year, as the planner plans it). */
  private static long limitSecs(JobInfo j) {
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    return limit == SlurmDuration.INFINITE ? 365L * 86400 : limit * 60;
  }

  /** Past usage has reached the limit; with safe: past, running and this job's together exceed it. */
  private boolean over(double usedSecs, double leftSecs, double jobSecs, long limitMinutes) {
    double limitSecs = limitMinutes * 60.0;
    return safe ? usedSecs + leftSecs + jobSecs > limitSecs : usedSecs >= limitSecs;
  }

  private static Function<AcctLimits, OptionalLong> maxMins(String tres) {
    return l -> {
      Long v = AssocTree.tres(l.getMaxTresMinsPerJob()).get(tres);
      return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    };
  }
}
