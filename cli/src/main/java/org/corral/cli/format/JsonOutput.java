package org.corral.cli.format;

import java.util.List;
import java.util.Locale;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * squeue --json and sinfo --json: the controller's answers in Slurm's data_parser v0.0.42 layout
 * (v0.0.42_openapi_job_info_resp; v0.0.42_openapi_nodes_resp's nodes and
 * v0.0.42_openapi_partition_resp's partitions), with the meta, errors and warnings every
 * response carries. Loaded only when --json is given.
 */
public final class JsonOutput {
  private JsonOutput() {}

  /** squeue --json. */
  public static String jobs(List<JobInfo> jobs, long lastUpdate, List<String> argv, String user,
      String cluster) {
    JsonWriter w = new JsonWriter().beginObject();
    w.key("jobs").beginArray();
    for (JobInfo j : jobs) {
      job(w, j, cluster);
    }
    w.endArray();
    w.number("last_backfill", lastUpdate);
    w.number("last_update", lastUpdate);
    return tail(w, argv, user, cluster);
  }

  /** sinfo --json: the nodes and the partitions. */
  public static String nodes(List<NodeInfo> nodes, List<PartitionInfo> parts, long lastUpdate,
      List<String> argv, String user, String cluster) {
    JsonWriter w = new JsonWriter().beginObject();
    w.key("nodes").beginArray();
    for (NodeInfo n : nodes) {
      node(w, n, cluster);
    }
    w.endArray();
    w.key("partitions").beginArray();
    for (PartitionInfo p : parts) {
      partition(w, p, cluster);
    }
    w.endArray();
    w.number("last_update", lastUpdate);
    return tail(w, argv, user, cluster);
  }

  private static String tail(JsonWriter w, List<String> argv, String user, String cluster) {
    w.key("meta").beginObject();
    w.key("plugin").beginObject().field("type", "").field("name", "")
        .field("data_parser", "data_parser/v0.0.42").field("accounting_storage", "").endObject();
    w.key("client").beginObject().field("source", "").field("user", user).field("group", "")
        .endObject();
    w.strings("command", argv);
    w.key("slurm").beginObject();
    w.key("version").beginObject().field("major", "22").field("micro", "8").field("minor", "05")
        .endObject();
    w.field("release", "22.05.8").field("cluster", cluster).endObject();
    w.endObject();
    w.key("errors").beginArray().endArray();
    w.key("warnings").beginArray().endArray();
    return w.endObject() + "\n";
  }

  private static void job(JsonWriter w, JobInfo j, String cluster) {
    boolean ended = j.getEndTime() > 0 && j.getState() != JobState.PENDING
        && j.getState() != JobState.RUNNING;
    w.beginObject();
    w.field("account", j.getAccount());
    w.number("accrue_time", j.getEligibleTime());
    w.field("allocating_node", j.getSubmitHost());
    w.number("array_job_id", j.getArrayJobId());
    if (j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty()) {
      w.number("array_task_id", j.getArrayTaskId());
    } else {
      w.unset("array_task_id");
    }
    w.number("array_max_tasks", j.getArrayThrottle());
    w.field("array_task_string", j.getArrayTasks());
    w.field("batch_flag", !j.getInteractive());
    w.field("batch_host", j.getBatchHost());
    w.field("cluster", cluster);
    w.field("command", j.getCommand());
    w.field("comment", j.getComment());
    w.number("cpus_per_task", Math.max(1, j.getCpusPerTask()));
    w.number("deadline", j.getDeadline());
    w.field("dependency", j.getDependency());
    exitCode(w, "derived_exit_code", 0, ended);
    w.number("eligible_time", j.getEligibleTime());
    w.number("end_time", j.getEndTime());
    w.field("excluded_nodes", j.getExcNodes());
    exitCode(w, "exit_code", j.getExitStatus(), ended);
    w.field("features", j.getFeatures());
    w.field("group_id", j.getGroupId());
    w.field("group_name", j.getGroupName());
    w.field("job_id", j.getJobId());
    List<String> state = j.getCompleting() ? List.of(j.getState().name(), "COMPLETING")
        : List.of(j.getState().name());
    w.strings("job_state", state);
    w.number("last_sched_evaluation", j.getLastSchedEval());
    w.limit32("max_nodes", j.getMaxNodes());
    w.field("name", j.getName());
    w.field("nodes", j.getNodes());
    w.field("nice", j.getNice());
    w.number("tasks_per_node", j.getNtasksPerNode());
    w.number("cpus", j.getNumCpus());
    w.number("node_count", j.getNumNodes());
    w.number("tasks", j.getNumTasks());
    w.field("partition", j.getPartition());
    if (j.getMemPerCpuMb() > 0) {
      w.number("memory_per_cpu", j.getMemPerCpuMb());
    } else {
      w.unset("memory_per_cpu");
    }
    if (j.getMemPerNodeMb() > 0) {
      w.number("memory_per_node", j.getMemPerNodeMb());
    } else {
      w.unset("memory_per_node");
    }
    w.field("hold", j.getPriority() == 0 && j.getState() == JobState.PENDING);
    w.number("priority", Integer.toUnsignedLong(j.getPriority()));
    w.field("qos", j.getQos().isEmpty() ? "normal" : j.getQos());
    w.field("required_nodes", j.getReqNodes());
    w.field("requeue", j.getRequeue());
    w.field("restart_cnt", j.getRestartCount());
    w.field("scheduled_nodes", j.getSchedNodes());
    w.strings("shared", j.getExclusive() ? List.of("none") : List.of());
    w.number("start_time", j.getStartTime());
    w.field("state_reason", j.getStateReason().isEmpty() ? "None" : j.getStateReason());
    w.field("standard_error", j.getStdErr());
    w.field("standard_input", j.getStdIn());
    w.field("standard_output", j.getStdOut());
    w.number("submit_time", j.getSubmitTime());
    w.number("suspend_time", j.getSuspendTime());
    w.limit32("time_limit", j.getTimeLimitMin());
    w.field("user_id", j.getUserId());
    w.field("user_name", j.getUserName());
    w.field("current_working_directory", j.getWorkDir());
    w.endObject();
  }

  /** v0.0.42_process_exit_code_verbose from a wait(2) status. */
  private static void exitCode(JsonWriter w, String name, int status, boolean ended) {
    int code = (status >> 8) & 0xff;
    int signal = status & 0x7f;
    String word = !ended ? "PENDING" : signal != 0 ? "SIGNALED" : code != 0 ? "ERROR" : "SUCCESS";
    w.key(name).beginObject();
    w.strings("status", List.of(word));
    if (ended) {
      w.number("return_code", code);
    } else {
      w.unset("return_code");
    }
    w.key("signal").beginObject();
    if (signal != 0) {
      w.number("id", signal);
    } else {
      w.unset("id");
    }
    w.field("name", "").endObject();
    w.endObject();
  }

  private static void node(JsonWriter w, NodeInfo n, String cluster) {
    w.beginObject();
    w.field("architecture", n.getArch());
    w.number("boot_time", n.getBootTime());
    w.field("cluster_name", cluster);
    w.field("cores", n.getCoresPerSocket());
    w.field("cpu_load", n.getCpuLoad());
    w.number("free_mem", n.getFreeMemMb());
    w.field("cpus", n.getCpus());
    w.field("effective_cpus", n.getCpus());
    w.strings("features", n.getFeaturesList());
    w.strings("active_features", n.getFeaturesList());
    w.field("gres", n.getGres());
    w.number("last_busy", n.getLastBusy());
    w.field("name", n.getName());
    w.field("address", n.getAddr());
    w.field("hostname", n.getHostname());
    w.strings("state", nodeState(n));
    w.field("operating_system", n.getOs());
    w.strings("partitions", n.getPartitionsList());
    w.field("port", n.getPort());
    w.field("real_memory", n.getRealMemoryMb());
    w.field("reason", n.getReason());
    w.number("reason_changed_at", n.getReasonTime());
    w.field("reason_set_by_user", n.getReason().isEmpty() ? "" : UserDirectory.system()
        .nameOf(n.getReasonUid()).orElse(Integer.toString(n.getReasonUid())));
    w.field("alloc_memory", n.getAllocMemMb());
    w.field("alloc_cpus", n.getAllocCpus());
    w.field("alloc_idle_cpus", n.getCpus() - n.getAllocCpus());
    w.number("slurmd_start_time", n.getSlurmdStartTime());
    w.field("sockets", n.getSockets());
    w.field("threads", n.getThreadsPerCore());
    w.field("temporary_disk", n.getTmpDiskMb());
    w.field("weight", n.getWeight());
    w.field("tres", "cpu=" + n.getCpus() + ",mem=" + n.getRealMemoryMb() + "M,billing="
        + n.getCpus());
    w.field("version", n.getVersion());
    w.endObject();
  }

  /** The base state, then its flags, as data_parser lists node states. */
  private static List<String> nodeState(NodeInfo n) {
    List<String> s = new java.util.ArrayList<>();
    s.add(n.getBaseState().name());
    if (n.getDrain()) {
      s.add("DRAIN");
    }
    if (n.getNotResponding()) {
      s.add("NOT_RESPONDING");
    }
    return s;
  }

  private static void partition(JsonWriter w, PartitionInfo p, String cluster) {
    w.beginObject();
    w.key("nodes").beginObject().field("allowed_allocation", "").field("configured", p.getNodes())
        .field("total", p.getTotalNodes()).endObject();
    w.key("accounts").beginObject().field("allowed", p.getAllowAccounts())
        .field("deny", p.getDenyAccounts()).endObject();
    w.key("groups").beginObject().field("allowed", p.getAllowGroups()).endObject();
    w.key("qos").beginObject().field("allowed", p.getAllowQos()).field("deny", "")
        .field("assigned", "").endObject();
    w.field("alternate", "");
    w.key("tres").beginObject().field("billing_weights", "").field("configured", "").endObject();
    w.field("cluster", cluster);
    w.key("cpus").beginObject().field("task_binding", 0).field("total", p.getTotalCpus())
        .endObject();
    w.key("defaults").beginObject();
    w.number("memory_per_cpu", p.getDefMemPerCpuMb());
    w.limit32("time", p.getDefaultTimeMin());
    w.endObject();
    w.field("grace_time", p.getGraceTime());
    w.key("maximums").beginObject();
    w.limit32("cpus_per_node", p.getMaxCpusPerNode());
    w.limit32("nodes", p.getMaxNodes());
    w.limit32("time", p.getMaxTimeMin());
    w.endObject();
    w.key("minimums").beginObject().field("nodes", p.getMinNodes()).endObject();
    w.field("name", p.getName());
    w.key("priority").beginObject().field("job_factor", p.getPriorityJobFactor())
        .field("tier", p.getPriorityTier()).endObject();
    List<String> state = new java.util.ArrayList<>();
    state.add(p.getState().toUpperCase(Locale.ROOT));
    w.key("partition").beginObject().strings("state", state).endObject();
    w.endObject();
  }
}
