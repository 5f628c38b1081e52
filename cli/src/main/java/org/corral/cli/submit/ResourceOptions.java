package org.corral.cli.submit;

import org.corral.common.TaskDistribution;

/**
 * The allocation options sbatch, srun and salloc share (Slurm's slurm_opt.c setters for the
 * rows of {@link AllocationOptionTable} the three take alike), applied in rising precedence
 * (#SBATCH directives, then the environment, then the command line): a later value replaces an
 * earlier one. Values are validated as they are applied, with Slurm's messages under the
 * command's name. {@link ResourceRequest} puts them into the job request.
 */
public final class ResourceOptions {

  /** Where an option's value came from. */
  public enum Source { SCRIPT, ENVIRONMENT, COMMAND_LINE }

  /**
   * Options the three accept and validate by getopt only, because on a Corral cluster they
   * change nothing about where, when or how a job runs (mail, profiling, binding hints, ...).
   */
  public static final java.util.Set<String> NO_EFFECT = java.util.Set.of(
      "acctg-freq", "cpu-freq", "delay-boot", "hint", "k", "mail-type", "mail-user",
      "mcs-label", "mem-bind", "network", "power", "priority", "profile", "reboot", "spread-job",
      "use-min-nodes");

  private static final long NICE_LIMIT = 2147483645L;
  private static final int DEFAULT_NICE = 100;

  private final String program;

  public String jobName;
  public String partition;
  public Integer minNodes;
  public Integer maxNodes;
  public Source nodesSource;
  public Integer ntasks;
  public Integer cpusPerTask;
  public Integer ntasksPerNode;
  public Long timeLimitMin;
  public Long memMb;
  private Source memSource;
  public Long memPerCpuMb;
  private Source memPerCpuSource;
  public boolean exclusive;
  public boolean exclusiveUser;
  public boolean oversubscribe;
  /** --contiguous: the job's nodes consecutive in the partition's node order. */
  public boolean contiguous;
  public String nodeList;
  public String excludeList;
  public String constraint;
  public String licenses;
  public String reservation;
  public String wckey;
  public String account;
  public String qos;
  public String comment;
  public String dependency;
  /** --begin and --deadline as given; read against the clock when the request is built. */
  public String begin;
  public String deadline;
  public boolean hold;
  public Integer nice;
  public boolean overcommit;
  public Integer minCpus;
  /** -m as given, checked (block, cyclic, plane=N, arbitrary, with socket and core levels). */
  public String distribution;
  public String chdir;
  public boolean quiet;
  public int verbose;
  public final GresOptions gres;
  /** --container: an OCI bundle's directory (oci.conf). */
  public String container;
  private PluginOptions plugins;

  public ResourceOptions(String program) {
    this.program = program;
    this.gres = new GresOptions(program);
  }

  /** The options plugins add (plugstack.conf), applied with these. */
  public void usePlugins(PluginOptions plugins) {
    this.plugins = plugins;
  }

  /** The plugins' options and their values; none when {@link #usePlugins} was not called. */
  public PluginOptions plugins() {
    return plugins != null ? plugins : PluginOptions.none(program);
  }

  /** Applies one option by its key; false when it is not one of these. */
  public boolean apply(String key, String value, Source source) throws CommandFailure {
    if (gres.apply(key, value) || (plugins != null && plugins.apply(key, value))) {
      return true;
    }
    switch (key) {
      case "J" -> jobName = value;
      case "p" -> partition = value;
      case "N" -> {
        int[] range = OptionValues.nodeRange(program, value);
        minNodes = range[0];
        maxNodes = range[1];
        nodesSource = source;
      }
      case "n" -> ntasks = OptionValues.positive(program, value, "--ntasks");
      case "c" -> cpusPerTask = OptionValues.positive(program, value, "--cpus-per-task");
      case "ntasks-per-node" -> ntasksPerNode = OptionValues.positive(program, value, "--ntasks-per-node");
      case "t" -> timeLimitMin = OptionValues.minutes(program, value);
      case "mem" -> {
        memMb = OptionValues.memoryMb(program, value, "--mem");
        memSource = source;
      }
      case "mem-per-cpu" -> {
        memPerCpuMb = OptionValues.memoryMb(program, value, "--mem-per-cpu");
        memPerCpuSource = source;
      }
      case "exclusive" -> exclusive(value);
      case "s" -> oversubscribe = true;
      case "contiguous" -> contiguous = true;
      case "w" -> nodeList = value;
      case "x" -> excludeList = value;
      case "C" -> constraint = value;
      case "L" -> licenses = value;
      case "reservation" -> reservation = value;
      case "wckey" -> wckey = value;
      case "A" -> account = value;
      case "q" -> qos = value;
      case "comment" -> comment = value;
      case "container" -> container = value;
      case "d" -> dependency = value;
      case "b" -> begin = value;
      case "deadline" -> deadline = value;
      case "H" -> hold = true;
      case "nice" -> nice = nice(value);
      case "O" -> overcommit = true;
      case "mincpus" -> minCpus = OptionValues.positive(program, value, "--mincpus");
      case "m" -> distribution = distribution(value);
      // Checked and kept for nothing: Corral lays CPUs out without sockets or hyperthreads, so
      // a task per core or N per socket asks no less than the task count does.
      case "ntasks-per-core" -> OptionValues.positive(program, value, "--ntasks-per-core");
      case "ntasks-per-socket" -> OptionValues.positive(program, value, "--ntasks-per-socket");
      case "D" -> chdir = value;
      case "Q" -> quiet = true;
      case "v" -> verbose++;
      default -> {
        return false;
      }
    }
    return true;
  }

  /** Checks that need every option applied (the two memory options). */
  public void validate() throws CommandFailure {
    if (memMb != null && memPerCpuMb != null) {
      if (OptionValues.keepMemPerCpu(program, memSource == Source.ENVIRONMENT,
          memPerCpuSource == Source.ENVIRONMENT)) {
        memMb = null;
      } else {
        memPerCpuMb = null;
      }
    }
  }

  /**
   * The variables that pass on what was asked for tasks: SLURM_NTASKS and SLURM_NPROCS (-n),
   * SLURM_CPUS_PER_TASK (-c), SLURM_NTASKS_PER_NODE, each only when given.
   */
  public java.util.Map<String, String> taskVariables() {
    java.util.Map<String, String> v = new java.util.LinkedHashMap<>();
    if (ntasks != null) {
      v.put("SLURM_NTASKS", String.valueOf(ntasks));
      v.put("SLURM_NPROCS", String.valueOf(ntasks));
    }
    if (cpusPerTask != null) {
      v.put("SLURM_CPUS_PER_TASK", String.valueOf(cpusPerTask));
    }
    if (ntasksPerNode != null) {
      v.put("SLURM_NTASKS_PER_NODE", String.valueOf(ntasksPerNode));
    }
    return v;
  }

  private String distribution(String value) throws CommandFailure {
    try {
      TaskDistribution.parse(value);
      return value.strip();
    } catch (IllegalArgumentException e) {
      throw CommandFailure.invalid(program, "Invalid --distribution specification");
    }
  }

  private int nice(String value) throws CommandFailure {
    if (value == null) {
      return DEFAULT_NICE;
    }
    long n;
    try {
      n = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw CommandFailure.invalid(program, "Invalid --nice value: " + value);
    }
    if (Math.abs(n) > NICE_LIMIT) {
      throw CommandFailure.invalid(program, "Invalid --nice value, out of range (+/- " + NICE_LIMIT + ")");
    }
    return (int) n;
  }

  /** --exclusive: whole nodes; --exclusive=user: nodes that run only this user's jobs. */
  private void exclusive(String value) throws CommandFailure {
    if (value == null || value.isEmpty() || value.equalsIgnoreCase("user")) {
      exclusive = value == null || value.isEmpty();
      exclusiveUser = !exclusive;
      return;
    }
    if (value.equalsIgnoreCase("mcs")) {
      throw CommandFailure.error(program, "option --exclusive=" + value + " is not supported by Corral");
    }
    throw CommandFailure.invalid(program, "Invalid --exclusive specification");
  }
}
