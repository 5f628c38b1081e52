package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Task layouts as the reference Slurm 22.05 makes them on 4 nodes of 8 CPUs: each row a batch
 * job run alone, what its script sees (SLURM_NTASKS, _NTASKS_PER_NODE, _TASKS_PER_NODE,
 * _JOB_CPUS_PER_NODE, _NNODES, _CPUS_PER_TASK, _DISTRIBUTION) and where a plain {@code srun}
 * inside runs each task, recorded from the reference with the same script.
 */
class TaskLayoutTest {
  private static final String SCRIPT = "echo \"NTASKS=$SLURM_NTASKS NTPN=$SLURM_NTASKS_PER_NODE"
      + " TPN=$SLURM_TASKS_PER_NODE JCPN=$SLURM_JOB_CPUS_PER_NODE NNODES=$SLURM_NNODES"
      + " CPT=$SLURM_CPUS_PER_TASK DIST=$SLURM_DISTRIBUTION\"; srun bash -c 'echo $SLURM_PROCID:$SLURMD_NODENAME'"
      + " 2>/dev/null | sort -n | tr '\\n' ' '";

  private static LocalCluster cluster;
  private static TestUsers.User alice;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run tasks as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.up(4, 8, 4000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @ParameterizedTest(name = "sbatch {0}")
  @CsvSource(delimiter = '|', value = {
      "-n 12|NTASKS=12 NTPN= TPN=8,4 JCPN=8,4 NNODES=2 CPT= DIST=|0:n1 1:n1 2:n1 3:n1 4:n1 5:n1 6:n1 7:n1 8:n2 9:n2 10:n2 11:n2",
      "-n 16|NTASKS=16 NTPN= TPN=8(x2) JCPN=8(x2) NNODES=2 CPT= DIST=|0:n1 1:n1 2:n1 3:n1 4:n1 5:n1 6:n1 7:n1 8:n2 9:n2 10:n2 11:n2 12:n2 13:n2 14:n2 15:n2",
      "-n 9|NTASKS=9 NTPN= TPN=8,1 JCPN=8,1 NNODES=2 CPT= DIST=|0:n1 1:n1 2:n1 3:n1 4:n1 5:n1 6:n1 7:n1 8:n2",
      "-N2 --ntasks-per-node=4|NTASKS=8 NTPN=4 TPN=4(x2) JCPN=4(x2) NNODES=2 CPT= DIST=|0:n1 1:n1 2:n1 3:n1 4:n2 5:n2 6:n2 7:n2",
      "-N2 -n 5|NTASKS=5 NTPN= TPN=4,1 JCPN=4,1 NNODES=2 CPT= DIST=|0:n1 1:n1 2:n1 3:n1 4:n2",
      "-N3 -n 5|NTASKS=5 NTPN= TPN=3,1(x2) JCPN=3,1(x2) NNODES=3 CPT= DIST=|0:n1 1:n1 2:n1 3:n2 4:n3",
      "-n 5 -c 3|NTASKS=5 NTPN= TPN=2(x2),1 JCPN=6(x2),3 NNODES=3 CPT=3 DIST=|0:n1 1:n1 2:n2 3:n2 4:n3",
      "-N2 -n 4 -c 2|NTASKS=4 NTPN= TPN=3,1 JCPN=6,2 NNODES=2 CPT=2 DIST=|0:n1 1:n1 2:n2 3:n2",
      "-N4 -n 4|NTASKS=4 NTPN= TPN=1(x4) JCPN=1(x4) NNODES=4 CPT= DIST=|0:n1 1:n2 2:n3 3:n4",
      "-N2 -n 4 --ntasks-per-node=2|NTASKS=4 NTPN=2 TPN=2(x2) JCPN=2(x2) NNODES=2 CPT= DIST=|0:n1 1:n1 2:n2 3:n2",
      "-n 3 --ntasks-per-node=2|NTASKS=3 NTPN=2 TPN=2(x2) JCPN=2(x2) NNODES=2 CPT= DIST=|0:n1 1:n1 2:n2",
      "-N2 -n 3 --ntasks-per-core=1|NTASKS=3 NTPN= TPN=2,1 JCPN=2,1 NNODES=2 CPT= DIST=|0:n1 1:n1 2:n2",
      "-N2 -n 6 -m cyclic|NTASKS=6 NTPN= TPN=5,1 JCPN=5,1 NNODES=2 CPT= DIST=cyclic|0:n1 1:n2 2:n1 3:n1 4:n1 5:n1",
      "-N2 -n 6 -m block|NTASKS=6 NTPN= TPN=5,1 JCPN=5,1 NNODES=2 CPT= DIST=block|0:n1 1:n1 2:n1 3:n1 4:n1 5:n2",
      "-N2 -n 7 -m plane=2|NTASKS=7 NTPN= TPN=6,1 JCPN=6,1 NNODES=2 CPT= DIST=plane|0:n1 1:n1 2:n2 3:n1 4:n1 5:n1 6:n1",
      "-N3 -n 7 -m cyclic|NTASKS=7 NTPN= TPN=5,1(x2) JCPN=5,1(x2) NNODES=3 CPT= DIST=cyclic|0:n1 1:n2 2:n3 3:n1 4:n1 5:n1 6:n1",
      "-N2 -n 6 -m cyclic:block|NTASKS=6 NTPN= TPN=5,1 JCPN=5,1 NNODES=2 CPT= DIST=cyclic:block|0:n1 1:n2 2:n1 3:n1 4:n1 5:n1",
      "-N2 --ntasks-per-node=3 -m cyclic|NTASKS=6 NTPN=3 TPN=3(x2) JCPN=3(x2) NNODES=2 CPT= DIST=cyclic|0:n1 1:n2 2:n1 3:n2 4:n1 5:n2",
  })
  void eachJobSeesItsLayoutAsOnTheReference(String options, String variables, String tasks) throws Exception {
    Path work = cluster.workDir(alice);
    List<String> args = new ArrayList<>(List.of("sbatch", "-o", "layout.out"));
    args.addAll(List.of(options.split(" ")));
    args.add("--wrap=" + SCRIPT);
    int jobId = LocalCluster.jobId(cluster.as(alice, work, args.toArray(String[]::new)));
    assertThat(cluster.awaitState(jobId, "COMPLETED", 60)).isEqualTo("COMPLETED");
    List<String> lines = Files.readAllLines(work.resolve("layout.out"));
    assertThat(lines.get(0)).isEqualTo(variables);
    assertThat(lines.get(1).strip()).isEqualTo(tasks);
  }
}
