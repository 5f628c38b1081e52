package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/** Small clusters and job specs for the pure tests of apply and the planner. */
public final class TestStates {
  private TestStates() {}

  /** n nodes n1..nN of the given CPUs and memory, registered (idle), in partition debug. */
  public static ClusterState cluster(int n, int cpus, long memMb) {
    List<NodeInfo> nodes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      names.add("n" + i);
      nodes.add(NodeInfo.newBuilder().setName("n" + i).setCpus(cpus).setRealMemoryMb(memMb)
          .setWeight(1).addPartitions("debug").build());
    }
    PartitionInfo debug = PartitionInfo.newBuilder().setName("debug").setIsDefault(true)
        .addAllNodeNames(names).setState("UP").setMaxTimeMin((int) SlurmDuration.INFINITE)
        .setMaxNodes((int) SlurmDuration.INFINITE).setPriorityJobFactor(1).build();
    ClusterState s = StateMachine.apply(ClusterState.empty(1),
        new Command.LoadConfig(nodes, List.of(debug), 100));
    for (int i = 1; i <= n; i++) {
      s = StateMachine.apply(s, new Command.NodeRegistered("n" + i, 100, cpus, memMb, 1, 2, "v", "Linux", "x86_64"));
    }
    return s;
  }

  public static JobSpec.Builder spec() {
    return JobSpec.newBuilder().setName("job").setScript("#!/bin/sh\ntrue\n").setPartition("debug")
        .setWorkDir("/home/alice").setTimeLimitMin(60).setMemPerCpuMb(100);
  }

  public static ClusterState submit(ClusterState s, int id, JobSpec spec, long time) {
    return StateMachine.apply(s, new Command.SubmitJob(id, time, 1000, "alice", 1000, "alice", spec));
  }
}
