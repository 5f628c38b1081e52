package org.corral.cli.submit;

import org.corral.protocol.msg.JobSpec;

/** Puts the shared resource options into an allocation request. */
public final class ResourceRequest {

  private ResourceRequest() {}

  public static JobSpec.Builder apply(ResourceOptions r, JobSpec.Builder b) {
    if (r.partition != null) {
      b.setPartition(r.partition);
    }
    if (r.minNodes != null) {
      b.setMinNodes(r.minNodes).setMaxNodes(r.maxNodes);
    }
    if (r.ntasks != null) {
      b.setNumTasks(r.ntasks);
    }
    if (r.cpusPerTask != null) {
      b.setCpusPerTask(r.cpusPerTask);
    }
    if (r.ntasksPerNode != null) {
      b.setNtasksPerNode(r.ntasksPerNode);
    }
    if (r.timeLimitMin != null) {
      b.setTimeLimitMin((int) (long) r.timeLimitMin);
    }
    if (r.memMb != null) {
      b.setMemPerNodeMb(r.memMb);
    }
    if (r.memPerCpuMb != null) {
      b.setMemPerCpuMb(r.memPerCpuMb);
    }
    if (r.nodeList != null) {
      b.setReqNodes(r.nodeList);
    }
    if (r.excludeList != null) {
      b.setExcNodes(r.excludeList);
    }
    if (r.constraint != null) {
      b.setConstraint(r.constraint);
    }
    if (r.licenses != null) {
      b.setLicenses(r.licenses);
    }
    if (r.reservation != null) {
      b.setReservation(r.reservation);
    }
    if (r.wckey != null) {
      b.setWckey(r.wckey);
    }
    r.gres.applyTo(b);
    return b.setExclusive(r.exclusive).setExclusiveUser(r.exclusiveUser).setOversubscribe(r.oversubscribe)
        .setContiguous(r.contiguous);
  }
}
