package org.corral.protocol.dataparser;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.corral.common.MemorySize;
import org.corral.protocol.Billing;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Nodes as v0.0.42_node and partitions as v0.0.42_partition_info (slurmrestd's /nodes and
 * /partitions, sinfo --json).
 */
public final class NodeJson {
  private NodeJson() {}

  /**
   * @param userName a uid's name (reason_set_by_user), its number where it has none
   */
  public static JsonObject node(NodeInfo n, IntFunction<String> userName) {
    JsonObject o = new JsonObject();
    o.put("architecture", n.getArch());
    o.put("burstbuffer_network_address", "");
    o.put("boards", 1);
    o.set("boot_time", NoVal.number(n.getBootTime()));
    o.put("cluster_name", ""); // set only in a federation
    o.put("cores", n.getCoresPerSocket());
    o.put("specialized_cores", 0);
    o.put("cpu_binding", 0);
    o.put("cpu_load", n.getCpuLoad());
    o.set("free_mem", NoVal.number(n.getFreeMemMb()));
    o.put("cpus", n.getCpus());
    o.put("effective_cpus", n.getCpus());
    o.put("specialized_cpus", "");
    o.set("energy", noEnergy());
    o.putObject("external_sensors"); // no acct_gather plugins: Slurm's empty values
    o.put("extra", "");
    o.putObject("power");
    o.set("features", JsonArray.of(n.getFeaturesList()));
    o.set("active_features", JsonArray.of(NodeFeatures.active(n)));
    o.put("gpu_spec", "");
    o.put("gres", n.getGres());
    o.put("gres_drained", "N/A");
    o.put("gres_used", "");
    o.put("instance_id", "");
    o.put("instance_type", "");
    o.set("last_busy", NoVal.number(n.getLastBusy()));
    o.put("mcs_label", "");
    o.put("specialized_memory", 0);
    o.put("name", n.getName());
    o.set("next_state_after_reboot", JsonArray.of(List.of("INVALID")));
    o.put("address", n.getAddr());
    o.put("hostname", n.getHostname());
    o.set("state", state(n));
    o.put("operating_system", n.getOs());
    o.put("owner", "");
    o.set("partitions", JsonArray.of(n.getPartitionsList()));
    o.put("port", n.getPort());
    o.put("real_memory", n.getRealMemoryMb());
    o.put("res_cores_per_gpu", 0);
    o.put("comment", "");
    o.put("reason", n.getReason());
    o.set("reason_changed_at", NoVal.number(n.getReasonTime()));
    o.put("reason_set_by_user", n.getReason().isEmpty() ? "" : userName.apply(n.getReasonUid()));
    o.set("resume_after", NoVal.number(0));
    o.put("reservation", "");
    o.put("alloc_memory", n.getAllocMemMb());
    o.put("alloc_cpus", n.getAllocCpus());
    o.put("alloc_idle_cpus", Math.max(0, n.getCpus() - n.getAllocCpus()));
    o.put("tres_used", n.getAllocCpus() == 0 ? "" : "cpu=" + n.getAllocCpus() + ",mem=" + n.getAllocMemMb() + "M");
    o.put("tres_weighted", 0.0);
    o.set("slurmd_start_time", NoVal.number(n.getSlurmdStartTime()));
    o.put("sockets", n.getSockets());
    o.put("threads", n.getThreadsPerCore());
    o.put("temporary_disk", n.getTmpDiskMb());
    o.put("weight", n.getWeight());
    o.put("tres", "cpu=" + n.getCpus() + ",mem=" + n.getRealMemoryMb() + "M,billing=" + n.getCpus());
    o.put("version", n.getVersion());
    return o;
  }

  /** The base state (IDLE, MIXED, ALLOCATED, DOWN, UNKNOWN, FUTURE) and its flags. */
  public static JsonArray state(NodeInfo n) {
    List<String> s = new ArrayList<>();
    s.add(switch (n.getBaseState()) {
      case NODE_DOWN -> "DOWN";
      case NODE_FUTURE -> "FUTURE";
      case NODE_UNKNOWN -> "UNKNOWN";
      default -> n.getAllocCpus() == 0 ? (n.getRunningJobs() > 0 ? "MIXED" : "IDLE")
          : n.getAllocCpus() >= n.getCpus() ? "ALLOCATED" : "MIXED";
    });
    if (n.getDrain()) {
      s.add("DRAIN");
    }
    if (n.getNotResponding() && n.getBaseState() != NodeBaseState.NODE_UNKNOWN) {
      s.add("NOT_RESPONDING");
    }
    if (n.getFail()) {
      s.add("FAIL");
    }
    return JsonArray.of(s);
  }

  /** {@code byName} gives a node (its memory counts in tres.configured; null when unknown). */
  public static JsonObject partition(PartitionInfo p, Function<String, NodeInfo> byName) {
    JsonObject o = new JsonObject();
    JsonObject nodes = o.putObject("nodes");
    nodes.put("allowed_allocation", "");
    nodes.put("configured", p.getNodes());
    nodes.put("total", p.getTotalNodes());
    JsonObject accounts = o.putObject("accounts");
    // "" when not set: Slurm's REST writes no "ALL" (scontrol shows ALL)
    accounts.put("allowed", notAll(p.getAllowAccounts()));
    accounts.put("deny", p.getDenyAccounts());
    o.putObject("groups").put("allowed", notAll(p.getAllowGroups()));
    JsonObject qos = o.putObject("qos");
    qos.put("allowed", notAll(p.getAllowQos()));
    qos.put("deny", "");
    qos.put("assigned", "");
    o.put("alternate", "");
    JsonObject tres = o.putObject("tres");
    tres.put("billing_weights", p.getTresBillingWeights());
    long mem = p.getNodeNamesList().stream().map(byName).filter(n -> n != null)
        .mapToLong(NodeInfo::getRealMemoryMb).sum();
    tres.put("configured", "cpu=" + p.getTotalCpus() + ",mem=" + MemorySize.format(mem) + ",node="
        + p.getTotalNodes() + ",billing=" + Billing.partition(p));
    o.put("cluster", ""); // set only in a federation
    o.set("select_type", JsonArray.of(List.of("CORE", "MEMORY")));
    JsonObject cpus = o.putObject("cpus");
    cpus.put("task_binding", 0);
    cpus.put("total", p.getTotalCpus());
    JsonObject defaults = o.putObject("defaults");
    memory(defaults, p.getDefMemPerCpuMb(), p.getDefMemPerNodeMb());
    defaults.set("time", Integer.toUnsignedLong(p.getDefaultTimeMin()) == NoVal.INFINITE32 ? NoVal.unset() : NoVal.number(p.getDefaultTimeMin()));
    defaults.put("job", "");
    o.put("grace_time", p.getGraceTime());
    JsonObject max = o.putObject("maximums");
    max.set("cpus_per_node", NoVal.limit32(p.getMaxCpusPerNode()));
    max.set("cpus_per_socket", NoVal.infinite());
    memory(max, p.getMaxMemPerCpuMb(), p.getMaxMemPerNodeMb());
    max.set("nodes", NoVal.limit32(p.getMaxNodes()));
    String over = p.getOversubscribe().isEmpty() ? "NO" : p.getOversubscribe();
    int jobs = over.contains(":") ? Integer.parseInt(over.substring(over.indexOf(':') + 1)) : 1;
    max.put("shares", jobs);
    JsonObject oversubscribe = max.putObject("oversubscribe");
    oversubscribe.put("jobs", jobs);
    oversubscribe.set("flags", over.startsWith("FORCE") ? JsonArray.of(List.of("force")) : new JsonArray());
    max.set("time", NoVal.limit32(p.getMaxTimeMin()));
    max.set("over_time_limit", NoVal.unset());
    o.putObject("minimums").put("nodes", p.getMinNodes());
    o.put("name", p.getName());
    o.put("node_sets", "");
    JsonObject prio = o.putObject("priority");
    prio.put("job_factor", p.getPriorityJobFactor());
    prio.put("tier", p.getPriorityTier());
    JsonObject timeouts = o.putObject("timeouts");
    timeouts.set("resume", NoVal.unset());
    timeouts.set("suspend", NoVal.unset());
    o.putObject("partition").set("state", JsonArray.of(List.of(p.getState().isEmpty() ? "UP" : p.getState())));
    o.set("suspend_time", NoVal.unset());
    return o;
  }

  /**
   * A partition's memory default or limit as Slurm keeps it, one number: per CPU with the
   * MEM_PER_CPU bit (the top one, so memory_per_cpu reads negative), else per node (0 =
   * unlimited); partition_memory_per_cpu and _per_node each set only for their kind.
   */
  private static void memory(JsonObject o, long perCpuMb, long perNodeMb) {
    boolean perCpu = perCpuMb > 0;
    o.put("memory_per_cpu", perCpu ? Long.MIN_VALUE | perCpuMb : perNodeMb);
    o.set("partition_memory_per_cpu", perCpu ? NoVal.number(perCpuMb) : NoVal.unset());
    o.set("partition_memory_per_node", perCpu ? NoVal.unset() : NoVal.number(perNodeMb));
  }

  private static String notAll(String list) {
    return list.equals("ALL") ? "" : list;
  }

  /** acct_gather_energy's values on a node without an energy plugin. */
  private static JsonObject noEnergy() {
    JsonObject e = new JsonObject();
    e.put("average_watts", 0);
    e.put("base_consumed_energy", 0);
    e.put("consumed_energy", 0);
    e.set("current_watts", NoVal.number(0));
    e.put("previous_consumed_energy", 0);
    e.put("last_collected", 0);
    return e;
  }
}
