package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MPI ranks wired up by srun as Slurm's mpi/pmi2 does it: a real MPICH program (Debian's mpich,
 * which .ci/run installs), compiled here, finds its peers through each node daemon's PMI server
 * and the fences srun relays between the nodes. The cluster says MpiDefault=pmi2, so a plain
 * srun wires up too and --mpi=none has to be asked for to get singletons.
 */
class MpiWireUpTest {
  private static final String PROGRAM = """
      #include <mpi.h>
      #include <stdio.h>
      #include <stdlib.h>
      int main(int argc, char **argv) {
        int rank, size, sum, mine;
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        mine = rank + 1;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        printf("rank=%d size=%d sum=%d node=%s\\n", rank, size, sum, getenv("SLURMD_NODENAME"));
        MPI_Finalize();
        return 0;
      }
      """;
  /**
   * MPICH's UCX device picks its transports itself; two "nodes" on one host share /dev/shm, so
   * shared memory would work, but TCP is what real nodes use: keep UCX to it (and self).
   */
  private static final Map<String, String> TCP_ONLY = Map.of("UCX_TLS", "tcp,self");

  private static LocalCluster cluster;
  private static TestUsers.User alice;
  private static Path work;
  private static Path program;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run tasks as them");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.mpich")), "needs MPICH (Debian mpich, libmpich-dev)");
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.upWithConfig(2, """
        ClusterName=mpi
        MpiDefault=pmi2
        NodeName=m[1-2] CPUs=4 RealMemory=2000
        PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """);
    work = cluster.workDir(alice);
    Files.writeString(work.resolve("allreduce.c"), PROGRAM);
    program = work.resolve("allreduce");
    LocalCluster.Result cc = cluster.program(alice, work, Map.of(), "/usr/bin/mpicc.mpich", "-o", program.toString(),
        work.resolve("allreduce.c").toString());
    assertThat(cc.exitCode()).as(cc.toString()).isZero();
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The layout is the reference's for `srun -N2 -n4` on idle nodes: three tasks on the first, one on the second. */
  @Test
  void everyRankSeesTheWholeStepAndTheSumOnTheNodeTheLayoutSays() throws Exception {
    assertThat(ranks("--mpi=pmi2", "-N2", "-n4")).containsExactly(
        "rank=0 size=4 sum=10 node=m1",
        "rank=1 size=4 sum=10 node=m1",
        "rank=2 size=4 sum=10 node=m1",
        "rank=3 size=4 sum=10 node=m2");
  }

  @Test
  void mpiDefaultWiresUpAPlainSrunAndCyclicRanksFindTheirNodes() throws Exception {
    assertThat(ranks("-N2", "-n3", "-m", "cyclic")).containsExactly(
        "rank=0 size=3 sum=6 node=m1",
        "rank=1 size=3 sum=6 node=m2",
        "rank=2 size=3 sum=6 node=m1");
  }

  @Test
  void singletonsOnlyWhenAskedFor() throws Exception {
    assertThat(ranks("--mpi=none", "-N2", "-n2")).containsExactly(
        "rank=0 size=1 sum=1 node=m1",
        "rank=0 size=1 sum=1 node=m2");
  }

  @Test
  void unknownAndUnservedTypesAreRefusedBeforeAnythingRuns() throws Exception {
    LocalCluster.Result r = cluster.as(alice, work, "srun", "--mpi=foo", "-n2", "true");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("""
        srun: error: Couldn't find the specified plugin name for mpi/foo looking at all files
        srun: error: cannot find mpi plugin for mpi/foo
        srun: error: MPI: Cannot create context for mpi/foo
        srun: error: MPI: Unable to load any plugin
        srun: error: Invalid MPI type 'foo', --mpi=list for acceptable types
        """);
    LocalCluster.Result pmix = cluster.as(alice, work, Map.of("SLURM_MPI_TYPE", "pmix"), "srun", "-n2", "true");
    assertThat(pmix.exitCode()).isEqualTo(1);
    assertThat(pmix.err()).endsWith("srun: error: Invalid MPI type 'pmix', --mpi=list for acceptable types\n");
    assertThat(cluster.as(null, "squeue", "-h", "-t", "all").out()).doesNotContain("true");
    LocalCluster.Result list = cluster.as(alice, work, "srun", "--mpi=list");
    assertThat(list.exitCode()).isZero();
    assertThat(list.out()).startsWith("MPI plugin types are...\n\tpmix\n\tnone\n").contains("\tpmi2\n");
  }

  /** What each rank of `srun OPTIONS allreduce` printed, in order; srun succeeded and said nothing. */
  private static List<String> ranks(String... options) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("srun"));
    args.addAll(List.of(options));
    args.add(program.toString());
    LocalCluster.Result r = cluster.as(alice, work, TCP_ONLY, args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.err()).as(r.toString()).isEmpty();
    return r.out().lines().sorted().toList();
  }
}
