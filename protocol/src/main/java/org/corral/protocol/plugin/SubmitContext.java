package org.corral.protocol.plugin;

import java.util.List;
import java.util.Optional;
import org.corral.protocol.msg.PartitionInfo;

/**
 * Who submits, and the cluster's partitions, for a submit filter.
 *
 * @param uid the submitting user
 * @param userName that user's name
 * @param partitions the cluster's partitions, in slurm.conf's order
 */
public record SubmitContext(int uid, String userName, List<PartitionInfo> partitions) {

  public SubmitContext {
    partitions = List.copyOf(partitions);
  }

  /** The default partition, if one is marked Default=YES. */
  public Optional<PartitionInfo> defaultPartition() {
    return partitions.stream().filter(PartitionInfo::getIsDefault).findFirst();
  }
}
