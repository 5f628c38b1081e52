package org.corral.protocol;

import java.util.Map;
import org.corral.common.BillingWeights;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.PartitionInfo;

/**
 * The billing TRES as the commands and the REST API show it and fairshare charges it. The
 * controller computes a job's when it is submitted (its request) and when it starts (its
 * allocation) from its partition's TRESBillingWeights; records without it bill their CPUs.
 */
public final class Billing {
  private Billing() {}

  /** The billing of these TRES counts (mem in MB) under the partition's weights. */
  public static double of(PartitionInfo p, Map<String, Long> tres) {
    return BillingWeights.parse(p.getTresBillingWeights()).billing(tres, p.getBillingMaxTres());
  }

  /** A job's billing TRES as scontrol's TRES= shows it: the allocation's once started, else the request's. */
  public static long shown(JobInfo j) {
    if (j.getState() != JobState.PENDING && j.hasBilling()) {
      return BillingWeights.stored(j.getBilling());
    }
    return j.hasReqBilling() ? BillingWeights.stored(j.getReqBilling()) : Integer.toUnsignedLong(j.getNumCpus());
  }

  /** What a running job is charged per second in fairshare usage: its billing, not rounded. */
  public static double charged(JobInfo j) {
    return j.hasBilling() ? j.getBilling() : Integer.toUnsignedLong(j.getNumCpus());
  }

  /** A partition's billing TRES (scontrol's TRES=...,billing=): its CPUs without weights. */
  public static long partition(PartitionInfo p) {
    return p.getTresBillingWeights().isEmpty() ? p.getTotalCpus() : p.getTotalBilling();
  }
}
