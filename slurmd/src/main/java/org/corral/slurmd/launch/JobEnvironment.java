package org.corral.slurmd.launch;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;

/**
 * A batch job's environment: what sbatch captured, then the SLURM_* variables Slurm sets for
 * the batch step (names and value forms as Slurm 22.05 sets them), written as `export` lines
 * for the job shell.
 */
final class JobEnvironment {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private JobEnvironment() {}

  static Map<String, String> of(LaunchBatchRequest req, String node, String confPath) {
    JobInfo j = req.getJob();
    JobSpec spec = req.getSpec();
    Map<String, String> env = new LinkedHashMap<>();
    for (String kv : spec.getEnvironmentList()) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        env.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    String id = String.valueOf(j.getJobId());
    int nodes = Math.max(1, j.getNumNodes());
    env.put("ENVIRONMENT", "BATCH");
    env.put("HOSTNAME", node);
    env.put("SLURMD_NODENAME", node);
    env.put("SLURM_CLUSTER_NAME", req.getClusterName());
    if (confPath != null) {
      env.put("SLURM_CONF", confPath);
    }
    env.put("SLURM_CPUS_ON_NODE", String.valueOf(req.getCpusOnNode()));
    if (spec.hasCpusPerTask()) {
      env.put("SLURM_CPUS_PER_TASK", String.valueOf(spec.getCpusPerTask()));
    }
    env.put("SLURM_GTIDS", "0");
    env.put("SLURM_JOBID", id);
    env.put("SLURM_JOB_ACCOUNT", j.getAccount());
    env.put("SLURM_JOB_CPUS_PER_NODE", cpusPerNode(j));
    env.put("SLURM_JOB_GID", String.valueOf(j.getGroupId()));
    env.put("SLURM_JOB_ID", id);
    env.put("SLURM_JOB_NAME", j.getName());
    env.put("SLURM_JOB_NODELIST", j.getNodes());
    env.put("SLURM_JOB_NUM_NODES", String.valueOf(nodes));
    env.put("SLURM_JOB_PARTITION", j.getPartition());
    env.put("SLURM_JOB_UID", String.valueOf(j.getUserId()));
    env.put("SLURM_JOB_USER", j.getUserName());
    env.put("SLURM_LOCALID", "0");
    if (spec.hasMemPerNodeMb()) {
      env.put("SLURM_MEM_PER_NODE", String.valueOf(spec.getMemPerNodeMb()));
    } else if (spec.hasMemPerCpuMb()) {
      env.put("SLURM_MEM_PER_CPU", String.valueOf(spec.getMemPerCpuMb()));
    }
    env.put("SLURM_NNODES", String.valueOf(nodes));
    env.put("SLURM_NODEID", "0");
    env.put("SLURM_NODELIST", j.getNodes());
    if (spec.hasNumTasks()) {
      env.put("SLURM_NPROCS", String.valueOf(spec.getNumTasks()));
      env.put("SLURM_NTASKS", String.valueOf(spec.getNumTasks()));
    }
    if (spec.hasNtasksPerNode()) {
      env.put("SLURM_NTASKS_PER_NODE", String.valueOf(spec.getNtasksPerNode()));
    }
    env.put("SLURM_PRIO_PROCESS", "0");
    env.put("SLURM_PROCID", "0");
    env.put("SLURM_SUBMIT_DIR", j.getWorkDir());
    env.put("SLURM_SUBMIT_HOST", j.getSubmitHost());
    env.put("SLURM_TASKS_PER_NODE", tasksPerNode(j, nodes));
    env.put("SLURM_TOPOLOGY_ADDR", node);
    env.put("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    if (!spec.getExportEnv().isEmpty() && !spec.getExportEnv().equals("ALL")) {
      env.put("SLURM_EXPORT_ENV", spec.getExportEnv());
    }
    return env;
  }

  /** CPUs per node in Slurm's compressed form: {@code 4}, {@code 4(x2)}, {@code 4,2}. */
  static String cpusPerNode(JobInfo j) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    var alloc = j.getAllocationList();
    while (i < alloc.size()) {
      int cpus = alloc.get(i).getCpus();
      int run = 1;
      while (i + run < alloc.size() && alloc.get(i + run).getCpus() == cpus) {
        run++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(cpus);
      if (run > 1) {
        sb.append("(x").append(run).append(')');
      }
      i += run;
    }
    return sb.length() == 0 ? String.valueOf(j.getNumCpus()) : sb.toString();
  }

  private static String tasksPerNode(JobInfo j, int nodes) {
    int tasks = Math.max(1, j.getNumTasks());
    if (nodes == 1) {
      return String.valueOf(tasks);
    }
    int base = tasks / nodes;
    int extra = tasks % nodes;
    if (extra == 0) {
      return base + "(x" + nodes + ")";
    }
    return (base + 1) + (extra > 1 ? "(x" + extra + ")" : "") + "," + base
        + (nodes - extra > 1 ? "(x" + (nodes - extra) + ")" : "");
  }

  /** `export NAME='value'` lines; names a POSIX shell cannot hold (bash functions) are left out. */
  static String exportLines(Map<String, String> env) {
    StringBuilder sb = new StringBuilder();
    env.forEach((k, v) -> {
      if (NAME.matcher(k).matches()) {
        sb.append("export ").append(k).append("='").append(v.replace("'", "'\\''")).append("'\n");
      }
    });
    return sb.toString();
  }
}
