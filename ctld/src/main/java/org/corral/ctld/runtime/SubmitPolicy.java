package org.corral.ctld.runtime;

import java.util.regex.Pattern;
import java.util.List;
import org.corral.common.ArrayTasks;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.common.config.ConfType;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.common.config.SubmitLimits;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.StepSpec;

/**
 * Checks a submission and fills in what the user left to the site: the partition, the time
 * limit, memory defaults, requeue. The result is what gets journaled, so replay never depends
 * on a configuration that may have changed since.
 */
final class SubmitPolicy {
  private static final System.Logger LOG = System.getLogger(SubmitPolicy.class.getName());
  private static final String DEP_TERM =
      "((after|afterany|afterok|afternotok|aftercorr)(:\\d+(_\\d+)?(\\+\\d+)?)+|singleton)";
  private static final Pattern DEPENDENCY = Pattern.compile(DEP_TERM + "([,?]" + DEP_TERM + ")*",
      Pattern.CASE_INSENSITIVE);

  private final SlurmConfig config;

  /** EnforcePartLimits=ALL|ANY|YES: a job beyond its partition's limits is refused, not left pending. */
  private final boolean enforcePartLimits;

  /** MaxArraySize: array task ids run from 0 to one less than this (Slurm's default 1001). */
  private final int maxArraySize;

  /** MaxMemPerCPU in MB (0 = none), for partitions without their own. */
  private final long maxMemPerCpu;

  /** DisableRootJobs=YES. */
  private final boolean disableRootJobs;

  /** slurm.conf Licenses=: the cluster's licenses and their counts. */
  private final java.util.Map<String, Integer> licenses;

  /** Script, environment and argument sizes (SchedulerParameters=max_script_size). */
  private final SubmitLimits limits;

  SubmitPolicy(SlurmConfig config) {
    this.config = config;
    this.limits = SubmitLimits.of(config.text(SlurmConfKeys.SCHEDULER_PARAMETERS).orElse(""));
    this.licenses = config.licenses();
    this.maxArraySize = (int) Math.min(Integer.MAX_VALUE, config.value(SlurmConfKeys.MAX_ARRAY_SIZE));
    Long maxMem = config.value(SlurmConfKeys.MAX_MEM_PER_CPU);
    this.maxMemPerCpu = maxMem == null || maxMem == ConfType.UNLIMITED_MB ? 0 : maxMem;
    this.disableRootJobs = config.value(SlurmConfKeys.DISABLE_ROOT_JOBS);
    String enforce = config.value(SlurmConfKeys.ENFORCE_PART_LIMITS);
    this.enforcePartLimits = enforce.equals("ALL") || enforce.equals("ANY") || enforce.equals("YES")
        || enforce.equals("1");
  }

  /**
   * Refuses a submission larger than the limits, as Slurm refuses a script over max_script_size
   * ("Pathname of a file, directory or other parameter too long"); off the writer thread.
   */
  void checkSizes(JobSpec spec) {
    refuseExcess(limits.excess(spec.getScriptBytes().size(), spec.getEnvironmentList(), spec.getArgvList()));
  }

  /** The same bounds for a step's environment and command line. */
  void checkSizes(StepSpec spec) {
    refuseExcess(limits.excess(0, spec.getEnvironmentList(), spec.getArgvList()));
  }

  private static void refuseExcess(String excess) {
    if (excess != null) {
      LOG.log(System.Logger.Level.INFO, "submission refused: " + excess);
      throw new SlurmException(SlurmError.PATHNAME_TOO_LONG);
    }
  }

  /** DisableRootJobs=YES: root's submissions are refused as Slurm refuses them ("Invalid user id"). */
  void admit(int uid) {
    if (uid == 0 && disableRootJobs) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
  }

  /**
   * MaxMemPerCPU (the partition's, else slurm.conf's), as Slurm 22.05 applies it: more memory per
   * CPU than that takes as many times the CPUs per task, each with its share of the memory
   * (--mem-per-cpu=500 under 200: -c 3 of 167M); memory per node asks at least that memory's
   * worth of CPUs on each node.
   */
  private static void capMemoryPerCpu(JobSpec.Builder b, long max) {
    if (max <= 0) {
      return;
    }
    if (b.hasMemPerCpuMb() && b.getMemPerCpuMb() > max) {
      long factor = (b.getMemPerCpuMb() + max - 1) / max;
      long perTask = Math.max(1, b.hasCpusPerTask() ? b.getCpusPerTask() : 1);
      b.setCpusPerTask((int) Math.min(Integer.MAX_VALUE, perTask * factor))
          .setMemPerCpuMb((b.getMemPerCpuMb() + factor - 1) / factor);
    } else if (b.hasMemPerNodeMb() && b.getMemPerNodeMb() > 0) {
      long cpus = (b.getMemPerNodeMb() + max - 1) / max;
      b.setMinCpusPerNode((int) Math.max(b.getMinCpusPerNode(), Math.min(Integer.MAX_VALUE, cpus)));
    }
  }

  JobSpec normalize(JobSpec spec, ClusterState s) {
    if (spec.getInteractive() && !spec.getScript().isEmpty()) {
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "an allocation (srun, salloc) carries no batch script");
    }
    if (!spec.getInteractive() && spec.getScript().isBlank() && spec.getScriptRef().isEmpty()) {
      throw new SlurmException(SlurmError.JOB_SCRIPT_MISSING);
    }
    PartitionInfo p = partition(spec, s);
    JobSpec.Builder b = spec.toBuilder().setPartition(p.getName())
        .setAccount(spec.getAccount().toLowerCase(java.util.Locale.ROOT)); // Slurm's account names are lower case
    if (!spec.hasTimeLimitMin()) {
      long def = Integer.toUnsignedLong(p.getDefaultTimeMin());
      b.setTimeLimitMin(def != SlurmDuration.INFINITE && def != 0 ? p.getDefaultTimeMin() : p.getMaxTimeMin());
    } else if (spec.getTimeLimitMin() == 0) {
      throw new SlurmException(SlurmError.INVALID_TIME_LIMIT);
    }
    if (!spec.hasMemPerNodeMb() && !spec.hasMemPerCpuMb()) {
      if (p.getDefMemPerCpuMb() > 0) {
        b.setMemPerCpuMb(p.getDefMemPerCpuMb());
      } else if (p.getDefMemPerNodeMb() > 0) {
        b.setMemPerNodeMb(p.getDefMemPerNodeMb());
      } else if (config.defMemPerCpu().isPresent()) {
        b.setMemPerCpuMb(config.defMemPerCpu().getAsLong());
      } else if (config.defMemPerNode().isPresent()) {
        b.setMemPerNodeMb(config.defMemPerNode().getAsLong());
      }
    }
    capMemoryPerCpu(b, p.getMaxMemPerCpuMb() > 0 ? p.getMaxMemPerCpuMb() : maxMemPerCpu);
    if (!spec.hasRequeue()) {
      b.setRequeue(config.jobRequeue());
    }
    if (p.getOversubscribe().equals("EXCLUSIVE")) {
      b.setExclusive(true); // OverSubscribe=EXCLUSIVE: every job of the partition gets whole nodes
    } else if (p.getOversubscribe().startsWith("FORCE")) {
      b.setOversubscribe(true).setExclusive(false); // FORCE: every job shares, --exclusive or not
    }
    if (p.getExclusiveUser()) {
      b.setExclusiveUser(true); // ExclusiveUser=YES: as if every job asked --exclusive=user
    }
    if (spec.getName().isEmpty()) {
      b.setName("sbatch");
    }
    if (spec.getWorkDir().isEmpty()) {
      b.setWorkDir("/tmp");
    }
    if (!spec.getArray().isEmpty()) {
      if (spec.getInteractive()) {
        throw new SlurmException(SlurmError.INVALID_ARRAY);
      }
      try {
        b.setArray(ArrayTasks.parse(spec.getArray(), maxArraySize).toString());
      } catch (IllegalArgumentException e) {
        throw new SlurmException(SlurmError.INVALID_ARRAY);
      }
    }
    spreadTasks(b, p, s);
    checkNodes(spec, p, s, b);
    if (enforcePartLimits) {
      checkPartitionLimits(b, p, s);
    }
    JobSpec out = b.build();
    checkDependency(out.getDependency());
    checkMemory(spec, p, s);
    checkGres(out, p, s);
    checkLicenses(out.getLicenses());
    return out;
  }

  /** -L as Slurm checks it at submit: known names, no more than the cluster has. */
  private void checkLicenses(String asked) {
    java.util.Map<String, Integer> wanted;
    try {
      wanted = org.corral.common.Licenses.parse(asked);
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_LICENSES);
    }
    wanted.forEach((name, n) -> {
      if (n > licenses.getOrDefault(name, -1)) {
        throw new SlurmException(SlurmError.INVALID_LICENSES);
      }
    });
  }

  /**
   * Generic resource requests as Slurm checks them at submit: each name must be one of
   * GresTypes (else "Invalid generic resource (gres) specification"), and some node of the
   * partition must have as many as a node is asked for, the partition as many as the job
   * ("Requested node configuration is not available").
   */
  private void checkGres(JobSpec spec, PartitionInfo p, ClusterState s) {
    if (spec.getTresPerNode().isEmpty() && spec.getTresPerJob().isEmpty() && spec.getTresPerTask().isEmpty()) {
      return;
    }
    java.util.Set<String> types = new java.util.HashSet<>();
    for (String t : config.value(SlurmConfKeys.GRES_TYPES)) {
      types.add(t.trim().toLowerCase(java.util.Locale.ROOT));
    }
    List<org.corral.common.gres.GresCount> perNode;
    List<org.corral.common.gres.GresCount> perJob;
    List<org.corral.common.gres.GresCount> perTask;
    try {
      perNode = org.corral.common.gres.GresCount.parseList(spec.getTresPerNode());
      perJob = org.corral.common.gres.GresCount.parseList(spec.getTresPerJob());
      perTask = org.corral.common.gres.GresCount.parseList(spec.getTresPerTask());
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_GRES);
    }
    List<org.corral.protocol.msg.NodeInfo> nodes = p.getNodeNamesList().stream().map(s::node)
        .flatMap(java.util.Optional::stream).toList();
    for (var list : List.of(perNode, perJob, perTask)) {
      for (var g : list) {
        if (!types.contains(g.name().toLowerCase(java.util.Locale.ROOT))) {
          throw new SlurmException(SlurmError.INVALID_GRES);
        }
      }
    }
    for (var g : perNode) {
      if (nodes.stream().noneMatch(n -> org.corral.protocol.Gres.total(n.getGresSlotsList(), g.name(), g.type()) >= g.count())) {
        throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
      }
    }
    for (var g : java.util.stream.Stream.concat(perJob.stream(), perTask.stream()).toList()) {
      long all = nodes.stream().mapToLong(n -> org.corral.protocol.Gres.total(n.getGresSlotsList(), g.name(), g.type())).sum();
      if (all < g.count()) {
        throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
      }
    }
  }

  /**
   * -w, -x and -C as Slurm checks them at submission: named nodes must exist (and the job gets
   * at least that many nodes), features must be some node's, and enough of the partition's
   * nodes must remain.
   */
  private static void checkNodes(JobSpec spec, PartitionInfo p, ClusterState s, JobSpec.Builder b) {
    List<String> required = nodes(spec.getReqNodes(), s);
    List<String> excluded = nodes(spec.getExcNodes(), s);
    if (!required.isEmpty()) {
      b.setReqNodes(Hostlist.compress(required));
      if (!spec.hasMinNodes() || spec.getMinNodes() < required.size()) {
        b.setMinNodes(required.size());
      }
      if (!p.getNodeNamesList().containsAll(required) || required.stream().anyMatch(excluded::contains)) {
        throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
      }
    }
    if (!excluded.isEmpty()) {
      b.setExcNodes(Hostlist.compress(excluded));
    }
    if (!spec.getConstraint().isBlank()) {
      java.util.Set<String> known = new java.util.HashSet<>();
      s.nodes().values().forEach(n -> known.addAll(n.getFeaturesList()));
      for (String f : org.corral.ctld.sched.NodeFilter.features(spec.getConstraint())) {
        if (!known.contains(f)) {
          throw new SlurmException(SlurmError.INVALID_FEATURE);
        }
      }
    }
    long left = p.getNodeNamesList().stream().filter(n -> !excluded.contains(n)).count();
    if (!excluded.isEmpty() && left < Math.max(1, b.hasMinNodes() ? b.getMinNodes() : 1)) {
      throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }
  }

  /**
   * The node count a task count needs, as Slurm's controller sets it at submit: -N with
   * --ntasks-per-node and no -n makes that many tasks on each node; -n without -N, or with a
   * node range, takes as many of the partition's largest nodes as its tasks' CPUs need (-n 12 on
   * 8-CPU nodes: 2), and a range no more nodes than tasks. A fixed -N stays as asked.
   */
  private static void spreadTasks(JobSpec.Builder b, PartitionInfo p, ClusterState s) {
    if (!b.hasNumTasks() && b.hasNtasksPerNode() && b.hasMinNodes()) {
      b.setNumTasks(b.getMinNodes() * b.getNtasksPerNode());
    }
    boolean fixed = b.hasMinNodes() && (!b.hasMaxNodes() || b.getMaxNodes() == b.getMinNodes());
    if (!b.hasNumTasks() || fixed) {
      return;
    }
    int tasks = Math.max(1, b.getNumTasks());
    int cpt = b.hasCpusPerTask() ? Math.max(1, b.getCpusPerTask()) : 1;
    int biggest = p.getNodeNamesList().stream().map(s::node).flatMap(java.util.Optional::stream)
        .mapToInt(org.corral.protocol.msg.NodeInfo::getCpus).max().orElse(0);
    int perNode = b.hasNtasksPerNode() ? b.getNtasksPerNode() : biggest / cpt;
    if (perNode <= 0) {
      return; // no node holds one task: PartitionConfig
    }
    int needed = (tasks + perNode - 1) / perNode;
    if (needed > (b.hasMinNodes() ? b.getMinNodes() : 1)) {
      b.setMinNodes(needed);
    }
    if (b.hasMaxNodes() && b.getMaxNodes() > tasks) {
      b.setMaxNodes(Math.max(tasks, b.getMinNodes()));
    }
  }

  /** The partition's time, node count and CPU limits, with Slurm's refusals (EnforcePartLimits). */
  private static void checkPartitionLimits(JobSpec.Builder b, PartitionInfo p, ClusterState s) {
    long limit = Integer.toUnsignedLong(b.getTimeLimitMin());
    long max = Integer.toUnsignedLong(p.getMaxTimeMin());
    if (max != SlurmDuration.INFINITE && (limit == SlurmDuration.INFINITE || limit > max)) {
      throw new SlurmException(SlurmError.INVALID_TIME_LIMIT);
    }
    int nodes = b.hasMinNodes() ? b.getMinNodes() : 1;
    long maxNodes = Integer.toUnsignedLong(p.getMaxNodes());
    if (nodes > p.getNodeNamesCount() || (maxNodes != SlurmDuration.INFINITE && nodes > maxNodes)
        || nodes < p.getMinNodes()) {
      throw new SlurmException(SlurmError.INVALID_NODE_COUNT);
    }
    int cpt = b.hasCpusPerTask() ? b.getCpusPerTask() : 1;
    int tasksPerNode = b.hasNtasksPerNode() ? b.getNtasksPerNode()
        : (int) Math.ceil((b.hasNumTasks() ? b.getNumTasks() : 1) / (double) Math.max(1, nodes));
    int biggest = p.getNodeNamesList().stream().map(s::node).flatMap(java.util.Optional::stream)
        .mapToInt(org.corral.protocol.msg.NodeInfo::getCpus).max().orElse(0);
    if ((long) cpt * tasksPerNode > biggest) {
      throw new SlurmException(SlurmError.TOO_MANY_REQUESTED_CPUS);
    }
  }

  private static List<String> nodes(String hostlist, ClusterState s) {
    if (hostlist.isBlank()) {
      return List.of();
    }
    List<String> names;
    try {
      names = Hostlist.expand(hostlist);
    } catch (IllegalArgumentException e) {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
    for (String n : names) {
      if (s.node(n).isEmpty()) {
        throw new SlurmException(SlurmError.INVALID_NODE_NAME);
      }
    }
    return names;
  }

  private PartitionInfo partition(JobSpec spec, ClusterState s) {
    if (spec.getPartition().isEmpty()) {
      return s.defaultPartition()
          .orElseThrow(() -> new SlurmException(SlurmError.DEFAULT_PARTITION_NOT_SET));
    }
    // Slurm refuses a list naming any unknown partition; of the rest Corral takes the first.
    PartitionInfo first = null;
    for (String name : spec.getPartition().split(",")) {
      PartitionInfo p = s.partition(name.strip()).orElseThrow(() -> new SlurmException(
          SlurmError.INVALID_PARTITION_NAME, "invalid partition specified: " + name.strip()));
      first = first == null ? p : first;
    }
    return first;
  }

  /**
   * The syntax only: like Slurm 22.05, a dependency on a job no longer (or never) known is taken
   * as satisfied.
   */
  private static void checkDependency(String dep) {
    if (!dep.isBlank() && !DEPENDENCY.matcher(dep.trim()).matches()) {
      throw new SlurmException(SlurmError.INVALID_DEPENDENCY);
    }
  }

  /**
   * Refuses a --mem no node of the partition has, as Slurm does at submit time. Too many nodes
   * or CPUs are accepted and wait (PartitionNodeLimit, PartitionConfig), as in Slurm.
   */
  private static void checkMemory(JobSpec asked, PartitionInfo p, ClusterState s) {
    if (!asked.hasMemPerNodeMb()) {
      return;
    }
    long mem = asked.getMemPerNodeMb();
    boolean fits = p.getNodeNamesList().stream().map(s::node)
        .anyMatch(n -> n.isPresent() && n.get().getRealMemoryMb() >= mem);
    if (!fits) {
      throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE,
          "Memory specification can not be satisfied");
    }
  }
}
