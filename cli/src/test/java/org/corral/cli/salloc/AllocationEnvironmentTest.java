package org.corral.cli.salloc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.ResourceOptions;
import org.corral.cli.submit.ResourceOptions.Source;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

class AllocationEnvironmentTest {

  @Test
  void theAllocationsVariablesAsSlurmSetsThem() throws Exception {
    // Recorded from Slurm 22.05: salloc -N2 -n3 -c2 --mem=100 -J myname env
    ResourceOptions r = new ResourceOptions("salloc");
    for (String[] o : new String[][] {{"N", "2"}, {"n", "3"}, {"c", "2"}, {"mem", "100"}, {"J", "myname"}}) {
      r.apply(o[0], o[1], Source.COMMAND_LINE);
    }
    JobInfo job = JobInfo.newBuilder().setJobId(21).setName("myname").setNodes("n[1,4]").setNumNodes(2)
        .setPartition("debug").addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2))
        .addAllocation(NodeAllocation.newBuilder().setNode("n4").setCpus(4)).build();
    Map<String, String> env = AllocationEnvironment.of(job, r,
        new ClusterFacts("reference", "vm", 6817, 30, Path.of("/etc/slurm/slurm.conf")), "/tmp", "vm");
    assertThat(env).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
        Map.entry("SLURM_CLUSTER_NAME", "reference"),
        Map.entry("SLURM_CONF", "/etc/slurm/slurm.conf"),
        Map.entry("SLURM_CPUS_PER_TASK", "2"),
        Map.entry("SLURM_JOBID", "21"),
        Map.entry("SLURM_JOB_CPUS_PER_NODE", "2,4"),
        Map.entry("SLURM_JOB_ID", "21"),
        Map.entry("SLURM_JOB_NAME", "myname"),
        Map.entry("SLURM_JOB_NODELIST", "n[1,4]"),
        Map.entry("SLURM_JOB_NUM_NODES", "2"),
        Map.entry("SLURM_JOB_PARTITION", "debug"),
        Map.entry("SLURM_MEM_PER_NODE", "100"),
        Map.entry("SLURM_NNODES", "2"),
        Map.entry("SLURM_NODELIST", "n[1,4]"),
        Map.entry("SLURM_NODE_ALIASES", "(null)"),
        Map.entry("SLURM_NPROCS", "3"),
        Map.entry("SLURM_NTASKS", "3"),
        Map.entry("SLURM_SUBMIT_DIR", "/tmp"),
        Map.entry("SLURM_SUBMIT_HOST", "vm"),
        Map.entry("SLURM_TASKS_PER_NODE", "1,2")));
  }
}
