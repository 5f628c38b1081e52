package org.corral.ctld.sched.limits;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.GresTres;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.JobRecord;

/**
 * The accounting limits a pending job waits on (AccountingStorageEnforce=limits for
 * associations, =qos for QOS), with Slurm's reason words: QOS limits first, then the job's
 * association and those above it. Counts what runs now and what this planning pass starts.
 */
public final class LimitCheck {
  /** What is enforced; {@code safe}: time limits hold a job that could not finish within them. */
  public record Enforce(boolean limits, boolean qos, boolean safe) {
    public static final Enforce NONE = new Enforce(false, false, false);

    public Enforce(boolean limits, boolean qos) {
      this(limits, qos, false);
    }

    /** From AccountingStorageEnforce's words (lower case). */
    public static Enforce of(java.util.Set<String> words) {
      return new Enforce(words.contains("limits"), words.contains("qos"), words.contains("safe"));
    }
  }

  public static final LimitCheck NONE = new LimitCheck(AssocTree.NONE, Enforce.NONE);

  private final AssocTree tree;
  private final Enforce enforce;
  private final Map<Integer, Long> jobsUnder = new HashMap<>();   // association id -> jobs running at or below it
  private final Map<Integer, Long> cpusUnder = new HashMap<>();
  private final Map<Integer, Long> jobsOf = new HashMap<>();      // association id -> its own running jobs
  private final Map<String, Long> qosJobs = new HashMap<>();
  private final Map<String, Long> qosUserJobs = new HashMap<>();
  private final Map<Integer, Long> gpusUnder = new HashMap<>();   // gres/gpu held at or below an association
  private final Map<String, Long> qosGpus = new HashMap<>();
  private final Map<String, Long> qosUserGpus = new HashMap<>();

  private final TimeLimitCheck time; // null: no time limits

  private LimitCheck(AssocTree tree, Enforce enforce, TimeLimitCheck time) {
    this.tree = tree;
    this.enforce = enforce;
    this.time = time;
  }

  private LimitCheck(AssocTree tree, Enforce enforce) {
    this(tree, enforce, null);
  }

  public static LimitCheck of(ClusterState state, AssocTree tree, Enforce enforce) {
    return of(state, tree, enforce, TimeUsage.NONE, 0);
  }

  /** With the time limits counted against {@code usage} (see {@link TimeLimitCheck}). */
  public static LimitCheck of(ClusterState state, AssocTree tree, Enforce enforce, TimeUsage usage, long now) {
    LimitCheck c = new LimitCheck(tree, enforce,
        tree.hasTimeLimits() ? new TimeLimitCheck(tree, usage, enforce.safe(), now) : null);
    if (!tree.isEmpty() && (enforce.limits() || enforce.qos())) {
      for (JobRecord r : state.jobs().values()) {
        if (JobStates.holdsResources(r.getInfo()) && !JobStates.isFinished(r.getInfo())) {
          c.started(r.getInfo());
        }
      }
    }
    return c;
  }

  /** Counts a job that runs (or starts in this pass). */
  public void started(JobInfo j) {
    if (tree.isEmpty()) {
      return;
    }
    String q = qosOf(j);
    qosJobs.merge(q, 1L, Long::sum);
    qosUserJobs.merge(q + "\0" + j.getUserId(), 1L, Long::sum);
    long gpus = GresTres.count(j, "gpu");
    qosGpus.merge(q, gpus, Long::sum);
    qosUserGpus.merge(q + "\0" + j.getUserId(), gpus, Long::sum);
    if (time != null) {
      time.started(j, q, assocOf(j).orElse(null));
    }
    assocOf(j).ifPresent(a -> {
      jobsOf.merge(a.getId(), 1L, Long::sum);
      for (AcctAssoc c : tree.chain(a)) {
        jobsUnder.merge(c.getId(), 1L, Long::sum);
        cpusUnder.merge(c.getId(), (long) j.getNumCpus(), Long::sum);
        gpusUnder.merge(c.getId(), gpus, Long::sum);
      }
    });
  }

  /**
   * Running jobs whose QOS or association used up a GrpTRESMins limit for a TRES they hold,
   * with the limit's reason: without safe Slurm ends them (TIMEOUT); with safe none is returned,
   * since a job starts there only when it can finish within the limits.
   */
  public Map<Integer, String> exhausted(ClusterState state) {
    Map<Integer, String> out = new java.util.TreeMap<>();
    if (time == null || enforce.safe() || !(enforce.limits() || enforce.qos())) {
      return out;
    }
    for (JobRecord r : state.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.RUNNING) {
        String why = time.exhausted(j, enforce.qos() ? tree.qos(qosOf(j)).orElse(null) : null,
            enforce.limits() ? assocOf(j).orElse(null) : null);
        if (why != null) {
          out.put(j.getJobId(), why);
        }
      }
    }
    return out;
  }

  /** Slurm's reason the job may not start now, or null. */
  public String blocked(JobInfo j) {
    if (tree.isEmpty()) {
      return null;
    }
    long wall = Integer.toUnsignedLong(j.getTimeLimitMin());
    if (enforce.qos()) {
      Optional<AcctQos> q = tree.qos(qosOf(j));
      if (q.isPresent()) {
        AcctQos qos = q.get();
        if (qos.hasMaxWallMinutes() && wall > qos.getMaxWallMinutes()) {
          return "QOSMaxWallDurationPerJobLimit";
        }
        Long cpus = AssocTree.tres(qos.getMaxTresPerJob()).get("cpu");
        if (cpus != null && j.getNumCpus() > cpus) {
          return "QOSMaxCpuPerJobLimit";
        }
        String gres = gpuLimit(j, qos);
        if (gres != null) {
          return gres;
        }
        if (qos.hasMaxJobsPerUser()
            && qosUserJobs.getOrDefault(qos.getName() + "\0" + j.getUserId(), 0L) >= qos.getMaxJobsPerUser()) {
          return "QOSMaxJobsPerUserLimit";
        }
        if (qos.hasGrpJobs() && qosJobs.getOrDefault(qos.getName(), 0L) >= qos.getGrpJobs()) {
          return "QOSGrpJobsLimit";
        }
        String timeLimit = time == null ? null : time.qosBlocked(j, qos);
        if (timeLimit != null) {
          return timeLimit;
        }
      }
    }
    if (!enforce.limits()) {
      return null;
    }
    Optional<AcctAssoc> found = assocOf(j);
    if (found.isEmpty()) {
      return null;
    }
    AcctAssoc a = found.get();
    OptionalLong maxWall = tree.max(a, AssocTree::maxWall);
    if (maxWall.isPresent() && wall > maxWall.getAsLong()) {
      return "AssocMaxWallDurationPerJobLimit";
    }
    OptionalLong maxCpus = tree.max(a, AssocTree.maxTresPerJob("cpu"));
    if (maxCpus.isPresent() && j.getNumCpus() > maxCpus.getAsLong()) {
      return "AssocMaxCpuPerJobLimit";
    }
    OptionalLong maxNodes = tree.max(a, AssocTree.maxTresPerJob("node"));
    if (maxNodes.isPresent() && j.getNumNodes() > maxNodes.getAsLong()) {
      return "AssocMaxNodePerJobLimit";
    }
    OptionalLong maxGpus = tree.max(a, AssocTree.maxTresPerJob(GPU));
    if (maxGpus.isPresent() && GresTres.count(j, "gpu") > maxGpus.getAsLong()) {
      return "AssocMaxGRESPerJob";
    }
    OptionalLong maxJobs = tree.max(a, AssocTree::maxJobs);
    if (maxJobs.isPresent() && jobsOf.getOrDefault(a.getId(), 0L) >= maxJobs.getAsLong()) {
      return "AssocMaxJobsLimit";
    }
    List<AcctAssoc> chain = tree.chain(a);
    for (AcctAssoc c : chain) {
      if (c.getLimits().hasGrpJobs() && jobsUnder.getOrDefault(c.getId(), 0L) >= c.getLimits().getGrpJobs()) {
        return "AssocGrpJobsLimit";
      }
      Long grpCpus = AssocTree.tres(c.getLimits().getGrpTres()).get("cpu");
      if (grpCpus != null && cpusUnder.getOrDefault(c.getId(), 0L) + j.getNumCpus() > grpCpus) {
        return "AssocGrpCpuLimit";
      }
      Long grpGpus = AssocTree.tres(c.getLimits().getGrpTres()).get(GPU);
      if (grpGpus != null && gpusUnder.getOrDefault(c.getId(), 0L) + GresTres.count(j, "gpu") > grpGpus) {
        return "AssocGrpGRES";
      }
    }
    return time == null ? null : time.assocBlocked(j, a);
  }

  private static final String GPU = "gres/gpu";

  /**
   * QOS Flags=NoReserve: the job's QOS keeps backfill from reserving resources for it (a job
   * planned for later gets its expected start, but lower-priority jobs may take its nodes).
   */
  public boolean noReserve(JobInfo j) {
    return tree.qos(qosOf(j)).map(q -> hasFlag(q, "NoReserve")).orElse(false);
  }

  /** Whether the QOS has the flag (sacctmgr's name, any case). */
  public static boolean hasFlag(AcctQos qos, String flag) {
    return qos.getFlagsList().stream().anyMatch(flag::equalsIgnoreCase);
  }

  /**
   * QOS Flags=DenyOnLimit: the QOS limit the job breaks on its own (MaxWall, MaxTRESPerJob and
   * MaxTRESPerUser cpu, node and gres/gpu, GrpTRES cpu and gres/gpu, a MaxJobsPerUser or GrpJobs
   * of 0), so that it is refused at submit rather than left pending; null when it conforms (or
   * the QOS has no such flag). Limits other jobs make it break are left to {@link #blocked}.
   */
  public static String deniedOnLimit(JobInfo j, AcctQos qos) {
    if (!hasFlag(qos, "DenyOnLimit")) {
      return null;
    }
    if (qos.hasMaxWallMinutes() && Integer.toUnsignedLong(j.getTimeLimitMin()) > qos.getMaxWallMinutes()) {
      return "QOSMaxWallDurationPerJobLimit";
    }
    long gpus = GresTres.count(j, "gpu");
    Map<String, Long> perJob = AssocTree.tres(qos.getMaxTresPerJob());
    Map<String, Long> perUser = AssocTree.tres(qos.getMaxTresPerUser());
    Map<String, Long> grp = AssocTree.tres(qos.getGrpTres());
    String[][] checks = {
        {"cpu", "QOSMaxCpuPerJobLimit", "QOSMaxCpuPerUserLimit", "QOSGrpCpuLimit"},
        {"node", "QOSMaxNodePerJobLimit", "QOSMaxNodePerUserLimit", "QOSGrpNodeLimit"},
        {GPU, "QOSMaxGRESPerJob", "QOSMaxGRESPerUser", "QOSGrpGRES"},
    };
    for (String[] c : checks) {
      long asked = switch (c[0]) {
        case "cpu" -> j.getNumCpus();
        case "node" -> j.getNumNodes();
        default -> gpus;
      };
      if (perJob.containsKey(c[0]) && asked > perJob.get(c[0])) {
        return c[1];
      }
      if (perUser.containsKey(c[0]) && asked > perUser.get(c[0])) {
        return c[2];
      }
      if (grp.containsKey(c[0]) && asked > grp.get(c[0])) {
        return c[3];
      }
    }
    if (qos.hasMaxJobsPerUser() && qos.getMaxJobsPerUser() == 0) {
      return "QOSMaxJobsPerUserLimit";
    }
    if (qos.hasGrpJobs() && qos.getGrpJobs() == 0) {
      return "QOSGrpJobsLimit";
    }
    return null;
  }

  /** A QOS's gres/gpu limits (MaxTRESPerJob, MaxTRESPerUser, GrpTRES), with Slurm's reasons; null when within them. */
  private String gpuLimit(JobInfo j, AcctQos qos) {
    long gpus = GresTres.count(j, "gpu");
    if (gpus == 0) {
      return null;
    }
    Long perJob = AssocTree.tres(qos.getMaxTresPerJob()).get(GPU);
    if (perJob != null && gpus > perJob) {
      return "QOSMaxGRESPerJob";
    }
    Long perUser = AssocTree.tres(qos.getMaxTresPerUser()).get(GPU);
    if (perUser != null && qosUserGpus.getOrDefault(qos.getName() + "\0" + j.getUserId(), 0L) + gpus > perUser) {
      return "QOSMaxGRESPerUser";
    }
    Long grp = AssocTree.tres(qos.getGrpTres()).get(GPU);
    if (grp != null && qosGpus.getOrDefault(qos.getName(), 0L) + gpus > grp) {
      return "QOSGrpGRES";
    }
    return null;
  }

  private Optional<AcctAssoc> assocOf(JobInfo j) {
    return j.getAccount().isEmpty() ? Optional.empty() : tree.assoc(j.getUserName(), j.getAccount(), j.getPartition());
  }

  private static String qosOf(JobInfo j) {
    return j.getQos().isEmpty() ? "normal" : j.getQos();
  }
}
