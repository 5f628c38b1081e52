package org.corral.slurmd.gres;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.gres.GresCount;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;

/**
 * The GPU variables a job or step sees on a node, as Slurm 22.05's gres/gpu plugin sets them:
 * CUDA_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL, ROCR_VISIBLE_DEVICES and ZE_AFFINITY_MASK list the
 * indices of the node's GPUs it was given (Slurm's IDX, not the device files' numbers),
 * SLURM_JOB_GPUS (a batch job) or SLURM_STEP_GPUS (a step) the same, SLURM_GPUS_ON_NODE their
 * count, and SLURM_GPUS what --gpus asked for the job. MIG instances are named by their UUIDs
 * in the device lists (CUDA cannot number them); an mps job also gets
 * CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, its share of the GPU's mps count.
 */
public final class GresEnvironment {
  /** Each node daemon's inventory, by node name (several daemons may share a JVM). */
  private static final Map<String, GresInventory> INVENTORIES = new java.util.concurrent.ConcurrentHashMap<>();

  private GresEnvironment() {}

  /** The node's generic resources, for what the allocations alone do not say (MIG UUIDs, mps counts). */
  public static void register(String node, GresInventory inventory) {
    INVENTORIES.put(node, inventory);
  }

  /** The batch job's variables on this node; empty when it has no GPUs here. */
  public static Map<String, String> job(JobInfo job, String node) {
    NodeAllocation a = Gres.on(job.getAllocationList(), node);
    Map<String, String> env = gpus(a == null ? List.of() : a.getGresList(), "SLURM_JOB_GPUS", node);
    if (!job.getTresPerJob().isEmpty()) {
      try {
        long n = GresCount.parseList(job.getTresPerJob()).stream().filter(g -> g.name().equals("gpu"))
            .mapToLong(GresCount::count).sum();
        if (n > 0) {
          env.put("SLURM_GPUS", Long.toString(n));
        }
      } catch (IllegalArgumentException e) {
        // refused at submit; nothing to say
      }
    }
    return env;
  }

  /** A step's variables on this node, from the GPUs the controller gave it here. */
  public static Map<String, String> step(List<NodeAllocation> stepGres, String node) {
    NodeAllocation a = Gres.on(stepGres, node);
    return gpus(a == null ? List.of() : a.getGresList(), "SLURM_STEP_GPUS", node);
  }

  /**
   * What one task bound to these GPUs of the step's (--gpu-bind, --gpus-per-task) sees: the device
   * lists and SLURM_STEP_GPUS name its own GPUs only; SLURM_GPUS_ON_NODE still counts the step's.
   */
  public static Map<String, String> task(List<Integer> idx, String node) {
    Map<String, String> env = visible(idx, node);
    env.put("SLURM_STEP_GPUS", String.join(",", idx.stream().map(String::valueOf).toList()));
    return env;
  }

  /** The device list variables for these GPUs of the node. */
  public static Map<String, String> visible(List<Integer> idx, String node) {
    List<String> uuids = INVENTORIES.getOrDefault(node, GresInventory.none()).uniqueIds("gpu", idx);
    String visible = String.join(",", uuids.isEmpty() ? idx.stream().map(String::valueOf).toList() : uuids);
    Map<String, String> env = new LinkedHashMap<>();
    for (String v : List.of("CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK")) {
      env.put(v, visible);
    }
    return env;
  }

  private static Map<String, String> gpus(List<GresAlloc> gres, String listName, String node) {
    Map<String, String> env = new LinkedHashMap<>();
    GresInventory inventory = INVENTORIES.getOrDefault(node, GresInventory.none());
    java.util.TreeSet<Integer> all = new java.util.TreeSet<>(Gres.indices(gres, "gpu"));
    int shards = 0;
    long mps = 0;
    for (GresAlloc a : gres) {
      if (a.getName().equals("shard") || a.getName().equals("mps")) { // the GPU its shares are of
        all.addAll(a.getGpuIndicesList());
      }
      if (a.getName().equals("shard")) {
        shards += a.getIndicesCount();
      } else if (a.getName().equals("mps")) {
        mps += a.getIndicesCount();
      }
    }
    List<Integer> idx = new java.util.ArrayList<>(all);
    if (idx.isEmpty()) {
      return env;
    }
    if (shards > 0) {
      env.put("SLURM_SHARDS_ON_NODE", Integer.toString(shards));
    }
    if (mps > 0) {
      List<String> file = inventory.files("gpu", idx);
      long perGpu = file.isEmpty() ? 0 : inventory.sharedCount("mps", file.get(0));
      if (perGpu > 0) {
        env.put("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", Long.toString(Math.max(1, mps * 100 / perGpu)));
      }
    }
    env.putAll(visible(idx, node));
    env.put(listName, String.join(",", idx.stream().map(String::valueOf).toList()));
    env.put("SLURM_GPUS_ON_NODE", Integer.toString(idx.size()));
    return env;
  }
}
