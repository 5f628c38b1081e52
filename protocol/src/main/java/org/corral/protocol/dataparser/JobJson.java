package org.corral.protocol.dataparser;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.BillingWeights;
import java.util.function.Function;
import org.corral.protocol.Billing;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * A job as v0.0.42_job_info: the controller's JobInfo with Slurm's field names and shapes
 * (slurmrestd's GET /slurm/v0.0.42/jobs and squeue --json).
 */
public final class JobJson {
  private JobJson() {}

  /** {@code nodes} gives a node's layout for job_resources (null when unknown). */
  public static JsonObject of(JobInfo j, String cluster, Function<String, NodeInfo> nodes) {
    JsonObject o = new JsonObject();
    o.put("account", j.getAccount());
    o.set("accrue_time", NoVal.number(j.getEligibleTime()));
    o.put("admin_comment", "");
    o.put("allocating_node", j.getSubmitHost());
    boolean inArray = j.getArrayJobId() != 0;
    o.set("array_job_id", NoVal.number(j.getArrayJobId()));
    o.set("array_task_id", inArray && j.getArrayTasks().isEmpty() ? NoVal.number(j.getArrayTaskId()) : NoVal.unset());
    o.set("array_max_tasks", NoVal.number(j.getArrayThrottle()));
    o.put("array_task_string", j.getArrayTasks());
    o.put("association_id", 0);
    o.put("batch_features", "");
    o.put("batch_flag", !j.getInteractive());
    o.put("batch_host", j.getBatchHost());
    o.set("flags", new JsonArray());
    o.put("burst_buffer", "");
    o.put("burst_buffer_state", "");
    o.put("cluster", cluster);
    o.put("cluster_features", "");
    o.put("command", j.getCommand());
    o.put("comment", j.getComment());
    o.put("container", "");
    o.put("container_id", "");
    o.put("contiguous", j.getContiguous());
    // no core or thread specialization: Slurm's 0 and its "no thread spec" value
    o.put("core_spec", 0);
    o.put("thread_spec", 32766);
    o.set("cores_per_socket", NoVal.unset());
    // Slurm sets it when the job starts.
    o.set("billable_tres", j.getState() != JobState.PENDING && j.hasBilling() ? NoVal.number(j.getBilling())
        : NoVal.unset());
    o.set("cpus_per_task", NoVal.number(Math.max(1, j.getCpusPerTask())));
    o.set("cpu_frequency_minimum", NoVal.unset());
    o.set("cpu_frequency_maximum", NoVal.unset());
    o.set("cpu_frequency_governor", NoVal.unset());
    o.put("cpus_per_tres", "");
    o.put("cron", "");
    o.set("deadline", NoVal.number(j.getDeadline()));
    o.set("delay_boot", NoVal.number(0));
    o.put("dependency", j.getDependency());
    o.set("derived_exit_code", exitCode(j, 0));
    o.set("eligible_time", NoVal.number(j.getEligibleTime()));
    o.set("end_time", NoVal.number(j.getEndTime()));
    o.put("excluded_nodes", j.getExcNodes());
    o.set("exit_code", exitCode(j, j.getExitStatus()));
    o.put("extra", "");
    o.put("failed_node", "");
    o.put("features", j.getFeatures());
    o.put("federation_origin", "");
    o.put("federation_siblings_active", "");
    o.put("federation_siblings_viable", "");
    o.set("gres_detail", gresDetail(j));
    o.put("group_id", j.getGroupId());
    o.put("group_name", j.getGroupName());
    o.set("het_job_id", NoVal.number(0));
    o.put("het_job_id_set", "");
    o.set("het_job_offset", NoVal.unset());
    o.put("job_id", j.getJobId());
    JsonObject resources = JobResourcesJson.of(j, nodes);
    if (resources != null) {
      o.set("job_resources", resources);
    }
    o.set("job_size_str", new JsonArray());
    o.set("job_state", state(j));
    o.set("last_sched_evaluation", NoVal.number(j.getLastSchedEval()));
    o.put("licenses", j.getLicenses());
    o.set("mail_type", new JsonArray());
    o.put("mail_user", j.getUserName());
    o.set("max_cpus", NoVal.number(0));
    o.set("max_nodes", NoVal.limit32(j.getMaxNodes()));
    o.put("mcs_label", "");
    o.put("memory_per_tres", "");
    o.put("name", j.getName());
    o.put("network", "");
    o.put("nodes", j.getNodes());
    o.put("nice", j.getNice());
    o.set("tasks_per_core", NoVal.infinite());
    o.set("tasks_per_tres", NoVal.number(0));
    o.set("tasks_per_node", NoVal.number(j.getNtasksPerNode()));
    o.set("tasks_per_socket", NoVal.infinite());
    o.set("tasks_per_board", NoVal.number(0));
    o.set("cpus", NoVal.number(j.getNumCpus()));
    o.set("node_count", NoVal.number(j.getNumNodes()));
    o.set("tasks", NoVal.number(j.getNumTasks()));
    o.put("partition", j.getPartition());
    o.put("prefer", "");
    o.set("memory_per_cpu", j.getMemPerCpuMb() > 0 ? NoVal.number(j.getMemPerCpuMb()) : NoVal.unset());
    o.set("memory_per_node", j.getMemPerNodeMb() > 0 ? NoVal.number(j.getMemPerNodeMb()) : NoVal.unset());
    o.set("minimum_cpus_per_node", NoVal.number(Math.max(1, j.getCpusPerTask())));
    o.set("minimum_tmp_disk_per_node", NoVal.number(0));
    o.putObject("power").putArray("flags");
    o.set("preempt_time", NoVal.number(0));
    o.set("preemptable_time", NoVal.number(0));
    o.set("pre_sus_time", NoVal.number(0));
    o.put("hold", j.getPriority() == 0 && j.getState() == JobState.PENDING);
    o.set("priority", NoVal.number(Integer.toUnsignedLong(j.getPriority())));
    // Slurm lists per-partition priorities only for jobs submitted to several partitions
    o.set("priority_by_partition", new JsonArray());
    o.set("profile", List.of("NOT_SET"));
    o.put("qos", j.getQos().isEmpty() ? "normal" : j.getQos());
    o.put("reboot", false);
    o.put("required_nodes", j.getReqNodes());
    o.put("required_switches", 0);
    o.put("requeue", j.getRequeue());
    o.set("resize_time", NoVal.number(0));
    o.put("restart_cnt", j.getRestartCount());
    o.put("resv_name", "");
    o.put("scheduled_nodes", j.getSchedNodes());
    o.put("selinux_context", "");
    o.set("shared", j.getExclusive() ? JsonArray.of(List.of("none")) : new JsonArray());
    o.put("sockets_per_board", 0);
    o.set("sockets_per_node", NoVal.unset());
    o.set("start_time", NoVal.number(j.getStartTime()));
    o.put("state_description", "");
    o.put("state_reason", j.getStateReason().isEmpty() ? "None" : j.getStateReason());
    o.put("standard_error", j.getStdErr());
    o.put("standard_input", j.getStdIn());
    o.put("standard_output", j.getStdOut());
    o.set("submit_time", NoVal.number(j.getSubmitTime()));
    o.set("suspend_time", NoVal.number(j.getSuspendTime()));
    o.put("system_comment", "");
    o.set("time_limit", NoVal.limit32(j.getTimeLimitMin()));
    o.set("time_minimum", NoVal.number(0));
    o.set("threads_per_core", NoVal.unset());
    o.put("tres_bind", "");
    o.put("tres_freq", "");
    o.put("tres_per_job", j.getTresPerJob());
    o.put("tres_per_node", j.getTresPerNode());
    o.put("tres_per_socket", "");
    o.put("tres_per_task", j.getTresPerTask());
    long reqBilling = j.hasReqBilling() ? BillingWeights.stored(j.getReqBilling()) : j.getNumCpus();
    o.put("tres_req_str", tres(j.getNumCpus(), memoryMb(j), Math.max(j.getNumNodes(), j.getMinNodes()), reqBilling));
    o.put("tres_alloc_str", j.getNodes().isEmpty() ? ""
        : tres(j.getNumCpus(), memoryMb(j), j.getNumNodes(), Billing.shown(j)));
    o.put("user_id", j.getUserId());
    o.put("user_name", j.getUserName());
    o.put("maximum_switch_wait_time", 0);
    o.put("wckey", "");
    o.put("current_working_directory", j.getWorkDir());
    return o;
  }

  /** gres_detail: the job's generic resources on each of its nodes ({@code gpu:tesla:2(IDX:0-1)}). */
  private static JsonArray gresDetail(JobInfo j) {
    JsonArray out = new JsonArray();
    for (NodeAllocation a : j.getAllocationList()) {
      String here = Gres.onNode(a);
      if (!here.isEmpty()) {
        out.add(here);
      }
    }
    return out;
  }

  /** job_state as Slurm lists it: the base state, then flags (COMPLETING, REQUEUED, ...). */
  public static JsonArray state(JobInfo j) {
    List<String> s = new ArrayList<>();
    s.add(j.getState() == JobState.SPECIAL_EXIT ? "SPECIAL_EXIT" : j.getState().name());
    if (j.getCompleting()) {
      s.add("COMPLETING");
    }
    return JsonArray.of(s);
  }

  private static JsonObject exitCode(JobInfo j, int status) {
    return exitCode(status, j.getEndTime() > 0 && j.getState() != JobState.PENDING && j.getState() != JobState.RUNNING);
  }

  /** v0.0.42_process_exit_code_verbose from a wait(2) status. */
  public static JsonObject exitCode(int status, boolean ended) {
    JsonObject o = new JsonObject();
    int code = (status >> 8) & 0xff;
    int signal = status & 0x7f;
    String word = !ended ? "PENDING" : signal != 0 ? "SIGNALED" : code != 0 ? "ERROR" : "SUCCESS";
    o.set("status", JsonArray.of(List.of(word)));
    o.set("return_code", ended ? NoVal.number(code) : NoVal.unset());
    JsonObject sig = new JsonObject();
    sig.set("id", signal != 0 ? NoVal.number(signal) : NoVal.unset());
    sig.put("name", signal != 0 ? Signals.name(signal) : "");
    o.set("signal", sig);
    return o;
  }

  private static long memoryMb(JobInfo j) {
    return j.getMemPerNodeMb() > 0 ? j.getMemPerNodeMb() * Math.max(1, j.getNumNodes())
        : j.getMemPerCpuMb() * j.getNumCpus();
  }

  private static String tres(long cpus, long memMb, long nodes, long billing) {
    return "cpu=" + cpus + ",mem=" + memMb + "M,node=" + nodes + ",billing=" + billing;
  }
}
