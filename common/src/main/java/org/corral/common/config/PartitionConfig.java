package org.corral.common.config;

import java.util.List;
import java.util.OptionalLong;
import org.corral.common.BillingWeights;
import org.corral.common.SlurmDuration;

/**
 * One partition as slurm.conf describes it (PartitionName= lines with PartitionName=DEFAULT
 * values applied). Times are minutes; unlimited times and counts are {@link SlurmDuration#INFINITE};
 * {@code defaultTimeMin} is {@link #NONE} when not given (Slurm's "DefaultTime=NONE": jobs then
 * get MaxTime). Words (state, oversubscribe, preemptMode) are upper case; access lists are as
 * written, "ALL" by default for the Allow lists and empty for DenyAccounts. TRESBillingWeights
 * are {@link BillingWeights#NONE} when not given.
 */
public record PartitionConfig(String name, String nodesExpr, List<String> nodeNames, boolean isDefault,
    long maxTimeMin, long defaultTimeMin, String state, int minNodes, long maxNodes,
    OptionalLong defMemPerCpuMb, OptionalLong defMemPerNodeMb, OptionalLong maxMemPerCpuMb,
    OptionalLong maxMemPerNodeMb, String allowGroups, String allowAccounts, String denyAccounts,
    String allowQos, int priorityTier, int priorityJobFactor, boolean hidden, boolean rootOnly,
    String oversubscribe, boolean exclusiveUser, int graceTime, String preemptMode, long maxCpusPerNode,
    BillingWeights billingWeights) {

  /** {@code defaultTimeMin} when DefaultTime is not set. */
  public static final long NONE = -1;

  public PartitionConfig {
    nodeNames = List.copyOf(nodeNames);
  }

  /** The time limit a job gets when it asks for none: DefaultTime, else MaxTime. */
  public long effectiveDefaultTimeMin() {
    return defaultTimeMin == NONE ? maxTimeMin : defaultTimeMin;
  }
}
