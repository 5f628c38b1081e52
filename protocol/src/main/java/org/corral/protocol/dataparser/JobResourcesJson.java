package org.corral.protocol.dataparser;

import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * A job's allocation as v0.0.42_job_res (job_info's job_resources): per node its CPUs, memory
 * and every core of every socket, ALLOCATED or UNALLOCATED, as Slurm-web draws them. Slurm keeps
 * it from the job's start until the job is purged, so ended jobs carry it too.
 */
public final class JobResourcesJson {
  private JobResourcesJson() {}

  /**
   * The job's resources, or null while it has none (pending: Slurm writes null there, which its
   * own schema does not allow, so the field is left out). {@code nodes} gives a node's layout
   * (null when unknown).
   */
  public static JsonObject of(JobInfo j, Function<String, NodeInfo> nodes) {
    List<NodeAllocation> alloc = j.getAllocationList();
    if (alloc.isEmpty()) {
      return null;
    }
    JsonObject o = new JsonObject();
    // Corral allocates cores (and memory) as cons_tres with CR_Core_Memory; Slurm 25.05 writes
    // such an allocation's select_type as CORE.
    o.set("select_type", List.of("CORE"));
    JsonObject n = o.putObject("nodes");
    n.put("count", alloc.size());
    // Slurm's node_req: AVAILABLE when the job may share CPUs (OverSubscribe), else ONE_ROW.
    n.set("select_type", List.of(j.getOversubscribe() ? "AVAILABLE" : "ONE_ROW"));
    n.put("list", j.getNodes());
    n.put("whole", j.getExclusive());
    JsonArray list = n.putArray("allocation");
    for (int i = 0; i < alloc.size(); i++) {
      NodeAllocation a = alloc.get(i);
      list.add(node(i, a, nodes.apply(a.getNode()), Gres.cpusOf(a)));
    }
    o.put("cpus", j.getNumCpus());
    o.set("threads_per_core", NoVal.unset());
    return o;
  }

  private static JsonObject node(int index, NodeAllocation a, NodeInfo info, BitSet cpus) {
    JsonObject o = new JsonObject();
    o.put("index", index);
    o.put("name", a.getNode());
    // "used" counts what steps hold in Slurm's own bookkeeping; its recordings show 0 for jobs
    // whose batch step runs, and Corral keeps no such count.
    o.putObject("cpus").put("count", a.getCpus()).put("used", 0);
    o.putObject("memory").put("used", 0).put("allocated", a.getMemMb());
    int threads = info == null ? 1 : Math.max(1, info.getThreadsPerCore());
    int sockets = info == null ? 1 : Math.max(1, info.getSockets());
    int cores = info == null || info.getCoresPerSocket() == 0
        ? Math.max(1, (cpus.length() + threads - 1) / threads) : info.getCoresPerSocket();
    JsonArray socketList = o.putArray("sockets");
    for (int s = 0; s < sockets; s++) {
      JsonObject socket = socketList.addObject();
      socket.put("index", s);
      JsonArray coreList = socket.putArray("cores");
      for (int c = 0; c < cores; c++) {
        // Slurm's CPU numbering: socket by socket, core by core, the core's threads in a row.
        int first = (s * cores + c) * threads;
        boolean allocated = cpus.nextSetBit(first) >= 0 && cpus.nextSetBit(first) < first + threads;
        JsonObject core = coreList.addObject();
        core.put("index", c);
        core.set("status", List.of(allocated ? "ALLOCATED" : "UNALLOCATED"));
      }
    }
    return o;
  }
}
