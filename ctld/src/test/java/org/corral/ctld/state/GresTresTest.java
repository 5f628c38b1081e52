package org.corral.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

/** A job's GRES as accounting records them (sacct's ReqTRES and AllocTRES). */
class GresTresTest {
  @Test
  void requestedCountsPerNodeTimesNodesPerJobAndPerTaskTimesTasks() {
    assertThat(GresTres.requested(JobInfo.newBuilder().setMinNodes(2).setTresPerNode("gres:gpu:a100:2").build()))
        .isEqualTo("gres/gpu:a100=4,gres/gpu=4");
    assertThat(GresTres.requested(JobInfo.newBuilder().setNumTasks(3).setTresPerTask("gres:gpu:1")
        .setTresPerJob("gres:nic:1").build())).isEqualTo("gres/gpu=3,gres/nic=1");
    assertThat(GresTres.requested(JobInfo.getDefaultInstance())).isEmpty();
  }

  @Test
  void allocatedSumsTheIndicesHeldOnEveryNode() {
    JobInfo j = JobInfo.newBuilder()
        .addAllocation(NodeAllocation.newBuilder().setNode("a").addGres(GresAlloc.newBuilder().setName("gpu")
            .setType("tesla").addIndices(0).addIndices(1)))
        .addAllocation(NodeAllocation.newBuilder().setNode("b").addGres(GresAlloc.newBuilder().setName("gpu")
            .addIndices(3)))
        .build();
    assertThat(GresTres.allocated(j)).isEqualTo("gres/gpu:tesla=2,gres/gpu=3");
  }
}
