package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Opt;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.ResourceOptions.Source;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepSpec;
import org.junit.jupiter.api.Test;

class SrunOptionsTest {

  private static SrunOptions parse(Map<String, String> env, String... args) throws Exception {
    Getopt.Result r = SrunOptionTable.getopt().parse(List.of(args));
    SrunOptions o = new SrunOptions();
    for (Map.Entry<String, String> e : SrunOptionTable.ENVIRONMENT) {
      if (env.containsKey(e.getKey())) {
        o.apply(e.getValue(), env.get(e.getKey()), Source.ENVIRONMENT);
      }
    }
    for (Opt opt : r.options()) {
      o.apply(opt.key(), opt.value(), Source.COMMAND_LINE);
    }
    return o;
  }

  @Test
  void optionsStopAtTheProgram() throws Exception {
    Getopt.Result r = SrunOptionTable.getopt().parse(List.of("-n2", "-l", "hostname", "-s", "-n", "3"));
    assertThat(r.operands()).containsExactly("hostname", "-s", "-n", "3");
    assertThat(r.options()).extracting(Opt::key).containsExactly("n", "l");
  }

  @Test
  void environmentGivesDefaultsTheCommandLineOverrides() throws Exception {
    SrunOptions o = parse(Map.of("SLURM_NTASKS", "12", "SLURM_NNODES", "2", "SLURM_KILL_BAD_EXIT", "0",
        "SLURM_LABELIO", "1", "SLURM_CPU_BIND", "quiet,none"), "-n", "3");
    assertThat(o.resources.ntasks).isEqualTo(3);
    assertThat(o.resources.minNodes).isEqualTo(2);
    assertThat(o.resources.nodesSource).isEqualTo(Source.ENVIRONMENT);
    assertThat(o.killOnBadExit).isFalse();
    assertThat(o.label).isTrue();
    assertThat(o.cpuBind).isEqualTo("none");
  }

  @Test
  void valuesAreCheckedWithSlurmsMessages() {
    assertThatThrownBy(() -> parse(Map.of(), "--mpi=foo", "true")).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).endsWith("srun: error: Invalid MPI type 'foo', --mpi=list for acceptable types"));
    assertThatThrownBy(() -> parse(Map.of(), "-W", "x", "true")).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("srun: error: Invalid numeric value \"x\" for --wait."));
    assertThatThrownBy(() -> parse(Map.of(), "-n", "x", "true")).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("srun: error: Invalid numeric value \"x\" for --ntasks."));
    assertThatThrownBy(() -> parse(Map.of(), "--bcast=/tmp", "true")).isInstanceOfSatisfying(CommandFailure.class,
        f -> assertThat(f.lines()).containsExactly("srun: error: option --bcast is not supported by Corral"));
    assertThatThrownBy(() -> SrunOptionTable.getopt().parse(List.of("--bogus")))
        .hasMessage("unrecognized option '--bogus'");
  }

  @Test
  void tooFewTasksForTheNodesShrinkTheNodeCount() throws Exception {
    SrunOptions o = parse(Map.of("SLURM_NNODES", "2"), "-n1", "--ntasks-per-node=3", "true");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli cli = new Cli("srun", new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
        Map.of(), Clock.systemUTC(), () -> null);
    SrunCommand.adjustCounts(o.resources, cli);
    assertThat(o.resources.minNodes).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
        "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n"
        + "srun: Warning: can't honor --ntasks-per-node set to 3 which doesn't match the requested tasks 1"
        + " with the number of requested nodes 1. Ignoring --ntasks-per-node.\n");
    assertThat(o.resources.ntasksPerNode).isNull();
  }

  @Test
  void theStepSpecCarriesWhatWasAskedFor() throws Exception {
    SrunOptions o = parse(Map.of(), "-N2", "-n4", "-c2", "-o", "out-%t.txt", "-i", "none", "-K", "--exclusive",
        "--mpi=pmi2", "-t", "5", "-w", "n[1-2]", "-D", "sub", "--cpu-bind=cores", "-u", "./a.out", "x");
    StepSpec s = SrunCommand.stepSpec(o, 42, List.of("./a.out", "x"), "", List.of("A=1"), Path.of("/home/u"),
        "10.0.0.1", 4000, "login1");
    assertThat(s.getJobId()).isEqualTo(42);
    assertThat(s.getName()).isEqualTo("a.out");
    assertThat(s.getMinNodes()).isEqualTo(2);
    assertThat(s.getNumTasks()).isEqualTo(4);
    assertThat(s.getCpusPerTask()).isEqualTo(2);
    assertThat(s.getStdOut()).isEqualTo("out-%t.txt");
    assertThat(s.getStdErr()).isEmpty();
    assertThat(s.getStdinTask()).isEqualTo(-2);
    assertThat(s.getKillOnBadExit()).isTrue();
    assertThat(s.getExclusive()).isTrue();
    assertThat(s.getMpi()).isEqualTo("pmi2");
    assertThat(s.getTimeLimitMin()).isEqualTo(5);
    assertThat(s.getNodeList()).isEqualTo("n[1-2]");
    assertThat(s.getWorkDir()).isEqualTo("/home/u/sub");
    assertThat(s.getCpuBind()).isEqualTo("cores");
    assertThat(s.getUnbuffered()).isTrue();
    assertThat(s.getIoHost()).isEqualTo("10.0.0.1");
    assertThat(s.getIoPort()).isEqualTo(4000);
    assertThat(s.getSrunHost()).isEqualTo("login1");
    assertThat(s.getArgvList()).containsExactly("./a.out", "x");
    assertThat(s.hasMaxNodes()).isTrue();
    SrunOptions plain = parse(Map.of(), "-o", "1", "hostname");
    StepSpec p = SrunCommand.stepSpec(plain, 1, List.of("hostname"), "", List.of(), Path.of("/"), "h", 1, "h");
    assertThat(p.getStdOut()).isEmpty();
    assertThat(p.getStdinTask()).isEqualTo(-1);
    assertThat(p.hasNumTasks()).isFalse();
    assertThat(p.hasMinNodes()).isFalse();
  }

  @Test
  void theStepEnvironment() throws Exception {
    SrunOptions o = parse(Map.of(), "-n3", "-c1", "-l", "--mpi=pmi2", "env");
    JobInfo job = JobInfo.newBuilder().setJobId(11).setName("interactive").setNodes("n[1-2]").setNumNodes(2)
        .setPartition("debug").addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2))
        .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(1)).build();
    List<String> env = StepEnvironment.build(o, Map.of("HOME", "/root", "SLURM_JOB_NAME", "old"), job, "env",
        new ClusterFacts("reference", "vm", 6817, 30, Path.of("/etc/slurm/slurm.conf")), "/tmp", "vm",
        "127.0.0.1", 43681, Map.of("SLURM_UMASK", "0022", "SLURM_PRIO_PROCESS", "0"));
    assertThat(env).contains("HOME=/root", "SLURM_JOB_ID=11", "SLURM_JOBID=11", "SLURM_JOB_NAME=env",
        "SLURM_JOB_NODELIST=n[1-2]", "SLURM_JOB_NUM_NODES=2", "SLURM_JOB_CPUS_PER_NODE=2,1",
        "SLURM_JOB_PARTITION=debug", "SLURM_NTASKS=3", "SLURM_NPROCS=3", "SLURM_CPUS_PER_TASK=1",
        "SLURM_LABELIO=1", "SLURM_MPI_TYPE=pmi2", "SLURM_UMASK=0022", "SLURM_PRIO_PROCESS=0",
        "SLURM_SUBMIT_DIR=/tmp", "SLURM_SUBMIT_HOST=vm", "SLURM_SRUN_COMM_HOST=127.0.0.1",
        "SLURM_SRUN_COMM_PORT=43681", "SLURM_STEP_LAUNCHER_PORT=43681", "SLURM_LAUNCH_NODE_IPADDR=127.0.0.1",
        "SLURM_CLUSTER_NAME=reference", "SLURM_WORKING_CLUSTER=reference:vm:6817:9728:109", "SRUN_DEBUG=3");
    assertThat(env).doesNotContain("SLURM_JOB_NAME=old");
    SrunOptions none = parse(Map.of(), "--export=NONE", "-Q", "env");
    List<String> bare = StepEnvironment.build(none, Map.of("HOME", "/root"), job, "env",
        new ClusterFacts("", "", 6817, 30, Path.of("/x")), "/tmp", "vm", "127.0.0.1", 1, Map.of());
    assertThat(bare).doesNotContain("HOME=/root").contains("SRUN_DEBUG=2")
        .noneMatch(v -> v.startsWith("SLURM_EXPORT_ENV=") || v.startsWith("SLURM_CLUSTER_NAME="));
  }
}
