package org.corral.ctld.state;

import java.util.HashMap;
import java.util.Map;
import org.corral.common.Licenses;
import org.corral.protocol.Billing;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.PartitionInfo;

/**
 * A job's TRES counts as its billing weighs them (cpu, mem in MB, node, gres/NAME[:TYPE],
 * license/NAME): what it asks for, set at submit, and what it was given, set when it starts.
 */
final class JobBilling {
  private JobBilling() {}

  /** The request's billing: CPUs, memory and nodes asked for, GRES and licenses asked for. */
  static double requested(JobInfo j, PartitionInfo p) {
    long nodes = Math.max(1, j.getMinNodes());
    long mem = j.getMemPerCpuMb() > 0 ? j.getMemPerCpuMb() * j.getNumCpus() : j.getMemPerNodeMb() * nodes;
    return Billing.of(p, counts(j, j.getNumCpus(), mem, nodes, GresTres.requested(j)));
  }

  /** The allocation's billing, from what each node gave it. */
  static double allocated(JobInfo j, PartitionInfo p) {
    long cpus = 0;
    long mem = 0;
    for (NodeAllocation a : j.getAllocationList()) {
      cpus += a.getCpus();
      mem += a.getMemMb();
    }
    return Billing.of(p, counts(j, cpus, mem, j.getAllocationCount(), GresTres.allocated(j)));
  }

  private static Map<String, Long> counts(JobInfo j, long cpus, long memMb, long nodes, String gres) {
    Map<String, Long> tres = new HashMap<>();
    tres.put("cpu", cpus);
    tres.put("mem", memMb);
    tres.put("node", nodes);
    if (!gres.isEmpty()) {
      for (String item : gres.split(",")) {
        int eq = item.indexOf('=');
        tres.put(item.substring(0, eq), Long.parseLong(item.substring(eq + 1)));
      }
    }
    try {
      Licenses.parse(j.getLicenses()).forEach((name, n) -> tres.put("license/" + name, (long) n));
    } catch (IllegalArgumentException e) {
      // refused at submit
    }
    return tres;
  }
}
