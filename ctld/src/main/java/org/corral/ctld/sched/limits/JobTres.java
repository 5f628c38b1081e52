package org.corral.ctld.sched.limits;

import java.util.LinkedHashMap;
import java.util.Map;
import org.corral.ctld.state.GresTres;
import org.corral.protocol.Billing;
import org.corral.protocol.msg.JobInfo;

/**
 * The TRES a job holds (once started) or asks for (while pending), as the GrpTRESMins limits
 * count them per second: cpu, mem (MB, all its nodes), node, billing (what fairshare charges)
 * and each gres/NAME and gres/NAME:TYPE.
 */
public final class JobTres {
  private JobTres() {}

  public static Map<String, Long> of(JobInfo j) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("cpu", Integer.toUnsignedLong(j.getNumCpus()));
    m.put("mem", j.getMemPerNodeMb() > 0 ? j.getMemPerNodeMb() * Math.max(1, j.getNumNodes())
        : j.getMemPerCpuMb() * Integer.toUnsignedLong(j.getNumCpus()));
    m.put("node", (long) Math.max(1, j.getNumNodes()));
    m.put("billing", (long) Math.ceil(Billing.charged(j)));
    m.putAll(GresTres.counts(j));
    return m;
  }
}
