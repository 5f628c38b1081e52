package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.corral.common.gres.GresCount;
import org.corral.protocol.msg.JobInfo;

/**
 * A job's generic resources as the planner needs them: per node (--gres, --gpus-per-node), per
 * job (--gpus, spread over its nodes), per task (--gpus-per-task), and CPUs and memory per GPU.
 */
record GresNeed(List<GresCount> perNode, List<GresCount> perJob, List<GresCount> perTask, long cpusPerGpu,
    long memPerGpu) {
  static final GresNeed NONE = new GresNeed(List.of(), List.of(), List.of(), 0, 0);
  private static final Map<String, GresNeed> CACHE = new ConcurrentHashMap<>();

  static GresNeed of(JobInfo j) {
    if (j.getTresPerNode().isEmpty() && j.getTresPerJob().isEmpty() && j.getTresPerTask().isEmpty()
        && j.getCpusPerTres().isEmpty() && j.getMemPerTres().isEmpty()) {
      return NONE;
    }
    return of(j.getTresPerNode(), j.getTresPerJob(), j.getTresPerTask(), j.getCpusPerTres(), j.getMemPerTres());
  }

  static GresNeed of(String perNode, String perJob, String perTask, String cpusPerTres, String memPerTres) {
    String key = key(perNode, perJob, perTask, cpusPerTres, memPerTres);
    GresNeed n = CACHE.get(key);
    if (n == null) {
      try {
        n = new GresNeed(GresCount.parseList(perNode), GresCount.parseList(perJob), GresCount.parseList(perTask),
            gpuValue(cpusPerTres), gpuValue(memPerTres));
      } catch (IllegalArgumentException e) {
        n = NONE; // refused at submit; a record from before cannot stop the planner
      }
      if (CACHE.size() < 10_000) {
        CACHE.put(key, n);
      }
    }
    return n;
  }

  private static String key(String... parts) {
    return String.join("\0", parts);
  }

  /** "gres:gpu:4" (CpusPerTres=, MemPerTres=): the GPU's value, 0 when absent. */
  private static long gpuValue(String tres) {
    for (GresCount c : GresCount.parseList(tres)) {
      if (c.name().equals("gpu")) {
        return c.count();
      }
    }
    return 0;
  }

  boolean isEmpty() {
    return perNode.isEmpty() && perJob.isEmpty() && perTask.isEmpty();
  }

  /** What the node at position k of the job's n nodes needs, with t of its tasks there. */
  List<GresCount> forNode(int k, int nodes, int tasks) {
    if (isEmpty()) {
      return List.of();
    }
    List<GresCount> out = new ArrayList<>(perNode);
    for (GresCount c : perJob) {
      long share = c.count() / nodes + (k < c.count() % nodes ? 1 : 0);
      if (share > 0) {
        out.add(new GresCount(c.name(), c.type(), share));
      }
    }
    for (GresCount c : perTask) {
      out.add(new GresCount(c.name(), c.type(), c.count() * Math.max(1, tasks)));
    }
    return out;
  }

  static long gpus(List<GresCount> need) {
    long n = 0;
    for (GresCount c : need) {
      if (c.name().equals("gpu")) {
        n += c.count();
      }
    }
    return n;
  }

  /** CPUs on a node: at least --cpus-per-gpu for each GPU there. */
  int cpus(int cpus, List<GresCount> need) {
    return cpusPerGpu > 0 ? (int) Math.max(cpus, cpusPerGpu * gpus(need)) : cpus;
  }

  /** Memory on a node: --mem-per-gpu for each GPU there, when given. */
  long mem(long mem, List<GresCount> need) {
    return memPerGpu > 0 ? memPerGpu * gpus(need) : mem;
  }
}
