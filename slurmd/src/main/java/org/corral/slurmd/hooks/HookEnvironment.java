package org.corral.slurmd.hooks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.PerNodeCounts;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeAllocation;

/**
 * The environment Slurm gives the Prolog and Epilog (slurm.conf(5), "Prolog and Epilog
 * Scripts", and what 22.05's slurmd gave a Prolog's `env`): the job's identity, owner, nodes,
 * CPUs, partition, directory and files, the cluster, this node and SLURM_CONF, plus
 * SLURM_SCRIPT_CONTEXT; the Epilog also gets the job's exit code. It is kept
 * in the job's spool directory (root only) so that an Epilog run by a later slurmd has it too.
 */
final class HookEnvironment {
  static final String FILE = "hooks.env";
  /** The system part of site programs' PATH: Slurm's scripts are written for a plain one. */
  static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private HookEnvironment() {}

  static Map<String, String> of(LaunchBatchRequest request, String nodeName, String confPath) {
    Map<String, String> env = of(request.getJob(), request.getClusterName(), nodeName, confPath);
    JobSpec spec = request.getSpec();
    if (spec.hasNumTasks()) {
      env.put("SLURM_JOB_NTASKS", Integer.toUnsignedString(Math.max(1, request.getJob().getNumTasks())));
    }
    // The batch script's files as asked for, patterns unexpanded (22.05 shows them so)
    String workDir = request.getJob().getWorkDir();
    if (!spec.getStdErr().isEmpty()) {
      env.put("SLURM_JOB_STDERR", absolute(spec.getStdErr(), workDir));
    }
    env.put("SLURM_JOB_STDIN", spec.getStdIn().isEmpty() ? "/dev/null" : absolute(spec.getStdIn(), workDir));
    if (!spec.getStdOut().isEmpty()) {
      env.put("SLURM_JOB_STDOUT", absolute(spec.getStdOut(), workDir));
    }
    return env;
  }

  private static String absolute(String path, String workDir) {
    return path.startsWith("/") || workDir.isEmpty() ? path : workDir + "/" + path;
  }

  static Map<String, String> of(JobInfo job, String clusterName, String nodeName, String confPath) {
    Map<String, String> env = new LinkedHashMap<>();
    if (!clusterName.isEmpty()) {
      env.put("SLURM_CLUSTER_NAME", clusterName);
    }
    env.put("SLURM_CONF", confPath);
    env.put("SLURMD_NODENAME", nodeName);
    if (!job.getAccount().isEmpty()) {
      env.put("SLURM_JOB_ACCOUNT", job.getAccount());
    }
    if (!job.getComment().isEmpty()) {
      env.put("SLURM_JOB_COMMENT", job.getComment());
    }
    List<Integer> cpus = job.getAllocationList().stream().map(NodeAllocation::getCpus).toList();
    env.put("SLURM_JOB_CPUS_PER_NODE", PerNodeCounts.format(cpus.isEmpty() ? List.of(Math.max(1, job.getNumCpus())) : cpus));
    env.put("SLURM_JOB_GID", Integer.toUnsignedString(job.getGroupId()));
    String id = Integer.toUnsignedString(job.getJobId());
    env.put("SLURM_JOB_ID", id);
    env.put("SLURM_JOBID", id);
    String nodes = job.getNodes().isEmpty() ? nodeName : job.getNodes();
    env.put("SLURM_JOB_NODELIST", nodes); // slurm.conf(5)'s name; 22.05 gives SLURM_NODELIST (below)
    env.put("SLURM_JOB_NUM_NODES", Integer.toUnsignedString(Math.max(1, job.getNumNodes())));
    env.put("SLURM_JOB_PARTITION", job.getPartition());
    env.put("SLURM_JOB_RESTART_COUNT", Integer.toUnsignedString(job.getRestartCount()));
    env.put("SLURM_JOB_UID", Integer.toUnsignedString(job.getUserId()));
    env.put("SLURM_JOB_USER", job.getUserName());
    if (!job.getWorkDir().isEmpty()) {
      env.put("SLURM_JOB_WORK_DIR", job.getWorkDir());
    }
    env.put("SLURM_NODELIST", nodes);
    env.put("SLURM_UID", Integer.toUnsignedString(job.getUserId()));
    return env;
  }

  /** The Prolog's: PATH, the job's environment and SLURM_SCRIPT_CONTEXT=prolog_slurmd. */
  static Map<String, String> prolog(String path, Map<String, String> job) {
    Map<String, String> env = new LinkedHashMap<>(job);
    env.put("PATH", path);
    env.put("SLURM_SCRIPT_CONTEXT", "prolog_slurmd");
    return env;
  }

  /** The Epilog's: with the job's wait(2) status and its exit:signal form. */
  static Map<String, String> epilog(String path, Map<String, String> job, int exitStatus) {
    Map<String, String> env = new LinkedHashMap<>(job);
    env.put("PATH", path);
    int code = (exitStatus >> 8) & 0xff;
    int signal = exitStatus & 0x7f;
    env.put("SLURM_JOB_DERIVED_EC", Integer.toString(exitStatus));
    env.put("SLURM_JOB_EXIT_CODE", Integer.toString(exitStatus));
    env.put("SLURM_JOB_EXIT_CODE2", code + ":" + signal);
    env.put("SLURM_SCRIPT_CONTEXT", "epilog_slurmd");
    return env;
  }

  /** Keeps the job's environment in its directory: NUL-separated NAME=value, mode 0600. */
  static void save(Map<String, String> env, Path jobDir) throws IOException {
    StringBuilder sb = new StringBuilder();
    env.forEach((k, v) -> sb.append(k).append('=').append(v.replace('\0', ' ')).append('\0'));
    Path tmp = jobDir.resolve(FILE + ".tmp");
    Files.writeString(tmp, sb, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    Files.move(tmp, jobDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** What {@link #save} kept; empty when the file is missing (a job launched before hooks). */
  static Map<String, String> load(Path jobDir) {
    Map<String, String> env = new LinkedHashMap<>();
    try {
      String text = Files.readString(jobDir.resolve(FILE), StandardCharsets.UTF_8);
      for (String entry : text.split("\0")) {
        int eq = entry.indexOf('=');
        if (eq > 0) {
          env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
      }
    } catch (IOException e) {
      // no saved environment: the Epilog gets what can be said without it
    }
    return env;
  }
}
