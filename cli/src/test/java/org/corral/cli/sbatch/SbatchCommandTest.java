package org.corral.cli.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SbatchCommandTest {

  @TempDir Path dir;
  FakeSubmitter sbatch;

  @BeforeEach
  void setUp() {
    sbatch = new FakeSubmitter(dir);
    sbatch.env.put("HOME", "/home/alice");
    sbatch.env.put("FOO", "bar");
  }

  private void script(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  @Test
  void commandLineOptionsFillTheJobSpec() throws IOException {
    script("job.sh", "#!/bin/bash\necho hi\n");
    int rc = sbatch.run("-J", "name", "-p", "debug", "-N", "2-4", "-n", "8", "-c", "2",
        "--ntasks-per-node=4", "-t", "1:30:00", "--mem=2G", "-o", "out-%j", "-e", "err-%j",
        "-i", "in.txt", "-H", "-d", "afterok:12", "-A", "acct", "--open-mode=append",
        "--comment", "a comment", "--no-requeue", "--exclusive", "--nice=5", "job.sh", "x", "y");

    assertThat(rc).isZero();
    assertThat(sbatch.out).isEqualTo("Submitted batch job 42\n");
    assertThat(sbatch.err).isEmpty();
    JobSpec s = sbatch.spec();
    assertThat(s.getName()).isEqualTo("name");
    assertThat(s.getPartition()).isEqualTo("debug");
    assertThat(s.getMinNodes()).isEqualTo(2);
    assertThat(s.getMaxNodes()).isEqualTo(4);
    assertThat(s.getNumTasks()).isEqualTo(8);
    assertThat(s.getCpusPerTask()).isEqualTo(2);
    assertThat(s.getNtasksPerNode()).isEqualTo(4);
    assertThat(s.getTimeLimitMin()).isEqualTo(90);
    assertThat(s.getMemPerNodeMb()).isEqualTo(2048);
    assertThat(s.hasMemPerCpuMb()).isFalse();
    assertThat(s.getStdOut()).isEqualTo("out-%j");
    assertThat(s.getStdErr()).isEqualTo("err-%j");
    assertThat(s.getStdIn()).isEqualTo("in.txt");
    assertThat(s.getHold()).isTrue();
    assertThat(s.getDependency()).isEqualTo("afterok:12");
    assertThat(s.getAccount()).isEqualTo("acct");
    assertThat(s.getOpenMode()).isEqualTo("append");
    assertThat(s.getComment()).isEqualTo("a comment");
    assertThat(s.hasRequeue()).isTrue();
    assertThat(s.getRequeue()).isFalse();
    assertThat(s.getExclusive()).isTrue();
    assertThat(s.getNice()).isEqualTo(5);
    assertThat(s.getScript()).isEqualTo("#!/bin/bash\necho hi\n");
    assertThat(s.getCommand()).isEqualTo(dir.resolve("job.sh").toString());
    assertThat(s.getArgvList()).containsExactly("x", "y");
    assertThat(s.getWorkDir()).isEqualTo(dir.toString());
    assertThat(s.getSubmitHost()).isEqualTo("submithost");
  }

  @Test
  void unsetOptionsStayUnset() throws IOException {
    script("job.sh", "#!/bin/sh\ntrue\n");
    sbatch.run("job.sh");
    JobSpec s = sbatch.spec();
    assertThat(s.hasMinNodes()).isFalse();
    assertThat(s.hasNumTasks()).isFalse();
    assertThat(s.hasTimeLimitMin()).isFalse();
    assertThat(s.hasMemPerNodeMb()).isFalse();
    assertThat(s.hasRequeue()).isFalse();
    assertThat(s.getPartition()).isEmpty();
    assertThat(s.getOpenMode()).isEmpty();
    assertThat(s.getExportEnv()).isEmpty();
    assertThat(s.getNice()).isZero();
    assertThat(s.getName()).isEqualTo("job.sh");
  }

  @Test
  void optionsAfterTheScriptBelongToTheScript() throws IOException {
    script("job.sh", "#!/bin/sh\n");
    sbatch.run("job.sh", "-J", "foo", "--x");
    assertThat(sbatch.spec().getName()).isEqualTo("job.sh");
    assertThat(sbatch.spec().getArgvList()).containsExactly("-J", "foo", "--x");
  }

  @Test
  void directivesAreReadUntilTheFirstCommand() throws IOException {
    script("job.sh", """
        #!/bin/bash
        # a comment

        #SBATCH --comment="hello world" --nice=3
        #SBATCH -J foo # trailing words are a comment
        #SBATCH -o 'single quoted'
        #sbatch -p lower-case-is-not-a-directive
        echo x
        #SBATCH --account=too-late
        """);
    assertThat(sbatch.run("job.sh")).isZero();
    JobSpec s = sbatch.spec();
    assertThat(s.getComment()).isEqualTo("hello world");
    assertThat(s.getNice()).isEqualTo(3);
    assertThat(s.getName()).isEqualTo("foo");
    assertThat(s.getStdOut()).isEqualTo("single quoted");
    assertThat(s.getPartition()).isEmpty();
    assertThat(s.getAccount()).isEmpty();
  }

  @Test
  void environmentOverridesDirectivesAndCommandLineOverridesBoth() throws IOException {
    script("job.sh", "#!/bin/sh\n#SBATCH -J script -p p1 -t 10 -A a1\n");
    sbatch.env.put("SBATCH_JOB_NAME", "env");
    sbatch.env.put("SBATCH_PARTITION", "p2");
    sbatch.env.put("SBATCH_TIMELIMIT", "20");
    sbatch.run("-J", "cli", "job.sh");
    JobSpec s = sbatch.spec();
    assertThat(s.getName()).isEqualTo("cli");
    assertThat(s.getPartition()).isEqualTo("p2");
    assertThat(s.getTimeLimitMin()).isEqualTo(20);
    assertThat(s.getAccount()).isEqualTo("a1");
    assertThat(sbatch.jobEnv()).containsEntry("SLURM_JOB_NAME", "cli");
  }

  @Test
  void flagVariablesFromTheEnvironment() throws IOException {
    script("job.sh", "#!/bin/sh\n");
    sbatch.env.put("SBATCH_REQUEUE", "1");
    sbatch.env.put("SBATCH_EXCLUSIVE", "");
    sbatch.env.put("SBATCH_OPEN_MODE", "a");
    sbatch.run("job.sh");
    assertThat(sbatch.spec().getRequeue()).isTrue();
    assertThat(sbatch.spec().getExclusive()).isTrue();
    assertThat(sbatch.spec().getOpenMode()).isEqualTo("append");
  }

  @Test
  void contiguousGoesWithTheJob() throws IOException {
    script("job.sh", "#!/bin/sh\n#SBATCH --contiguous\n");
    sbatch.run("job.sh");
    assertThat(sbatch.spec().getContiguous()).isTrue();
  }

  @Test
  void memoryFromTheEnvironmentYieldsToTheOtherMemoryOption() throws IOException {
    script("job.sh", "#!/bin/sh\n#SBATCH --mem=1G\n");
    sbatch.env.put("SBATCH_MEM_PER_CPU", "300");
    assertThat(sbatch.run("job.sh")).isZero();
    assertThat(sbatch.spec().getMemPerNodeMb()).isEqualTo(1024);
    assertThat(sbatch.spec().hasMemPerCpuMb()).isFalse();
  }

  @Test
  void memoryOptionsFromScriptAndCommandLineConflict() throws IOException {
    script("job.sh", "#!/bin/sh\n#SBATCH --mem=1G\n");
    assertThat(sbatch.run("--mem-per-cpu=200", "job.sh")).isEqualTo(1);
    assertThat(sbatch.err)
        .isEqualTo("sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n");
    assertThat(sbatch.requests).isEmpty();
  }

  @Test
  void exportAllSendsTheWholeEnvironmentAndSlurmVariables() {
    sbatch.run("--wrap", "true");
    assertThat(sbatch.jobEnv())
        .containsEntry("FOO", "bar")
        .containsEntry("HOME", "/home/alice")
        .containsEntry("SLURM_JOB_NAME", "wrap")
        .containsEntry("SLURM_SUBMIT_DIR", dir.toString())
        .containsEntry("SLURM_SUBMIT_HOST", "submithost")
        .containsEntry("SLURM_UMASK", "0022")
        .doesNotContainKeys("SLURM_EXPORT_ENV", "SLURM_GET_USER_ENV");
  }

  @Test
  void exportNoneSendsOnlySlurmVariables() {
    sbatch.run("--export=NONE", "--wrap", "true");
    assertThat(sbatch.jobEnv()).doesNotContainKeys("FOO", "HOME")
        .containsEntry("SLURM_EXPORT_ENV", "NONE")
        .containsEntry("SLURM_GET_USER_ENV", "1")
        .containsEntry("SLURM_JOB_NAME", "wrap");
    assertThat(sbatch.spec().getExportEnv()).isEqualTo("NONE");
  }

  @Test
  void exportListPassesNamedVariablesAndAssignments() {
    sbatch.env.put("SBATCH_EXPORT", "FOO,BAR=x y,MISSING");
    sbatch.run("--wrap", "true");
    assertThat(sbatch.jobEnv()).containsEntry("FOO", "bar").containsEntry("BAR", "x y")
        .doesNotContainKeys("HOME", "MISSING")
        .containsEntry("SLURM_EXPORT_ENV", "FOO,BAR=x y,MISSING");
  }

  @Test
  void wrapMakesAShellScriptNamedWrap() {
    sbatch.run("--wrap", "echo hi");
    JobSpec s = sbatch.spec();
    assertThat(s.getScript())
        .isEqualTo("#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hi\n");
    assertThat(s.getName()).isEqualTo("wrap");
    assertThat(s.getCommand()).isEmpty();
  }

  @Test
  void scriptFromStdinIsNamedSbatch() {
    sbatch.stdin = "#!/bin/sh\n#SBATCH -t 5\nhostname\n";
    sbatch.run();
    assertThat(sbatch.spec().getName()).isEqualTo("sbatch");
    assertThat(sbatch.spec().getTimeLimitMin()).isEqualTo(5);
    assertThat(sbatch.spec().getCommand()).isEmpty();
  }

  @Test
  void commandIsAbsoluteOnlyForBareNamesFoundInTheWorkingDirectory() throws IOException {
    script("sub/s.sh", "#!/bin/sh\n");
    assertThat(JobSpecAssembler.commandPath("sub/s.sh", dir)).isEqualTo(dir + "/sub/s.sh");
    assertThat(JobSpecAssembler.commandPath("./sub/s.sh", dir)).isEqualTo("./sub/s.sh");
    assertThat(JobSpecAssembler.commandPath("../s.sh", dir)).isEqualTo("../s.sh");
    assertThat(JobSpecAssembler.commandPath("/abs/s.sh", dir)).isEqualTo("/abs/s.sh");
    assertThat(JobSpecAssembler.commandPath("elsewhere.sh", dir)).isEqualTo("elsewhere.sh");
  }

  @Test
  void relativeChdirIsResolvedAgainstTheCurrentDirectory() {
    sbatch.run("-D", "sub/../work", "--wrap", "true");
    assertThat(sbatch.spec().getWorkDir()).isEqualTo(dir.resolve("work").toString());
    assertThat(sbatch.jobEnv()).containsEntry("SLURM_SUBMIT_DIR", dir.toString());
  }

  @Test
  void niceWithoutValueIs100() {
    sbatch.run("--nice", "--wrap", "true");
    assertThat(sbatch.spec().getNice()).isEqualTo(100);
  }

  @Test
  void parsablePrintsOnlyTheIdAndQuietNothing() {
    sbatch.run("--parsable", "--wrap", "true");
    assertThat(sbatch.out).isEqualTo("42\n");
    FakeSubmitter quiet = new FakeSubmitter(dir);
    quiet.run("-Q", "--wrap", "true");
    assertThat(quiet.out).isEmpty();
    assertThat(quiet.requests).hasSize(1);
  }

  @Test
  void longOptionPrefixesWork() {
    sbatch.run("--parsab", "--job=abbrev", "--wr", "true");
    assertThat(sbatch.out).isEqualTo("42\n");
    assertThat(sbatch.spec().getName()).isEqualTo("abbrev");
  }

  @Test
  void unsupportedOptionIsRefusedClearly() {
    assertThat(sbatch.run("--gpus-per-socket=1", "--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.err).isEqualTo("sbatch: error: option --gpus-per-socket is not supported by Corral\n");
    assertThat(sbatch.requests).isEmpty();
  }

  @Test
  void gpuOptionsAreSentAsSlurmsTresStrings() {
    assertThat(sbatch.run("--gres=gpu:a100:2,nic", "--gpus=3", "--gpus-per-task=1", "--cpus-per-gpu=4",
        "--mem-per-gpu=1G", "--wrap", "true")).isZero();
    assertThat(sbatch.spec().getTresPerNode()).isEqualTo("gres:gpu:a100:2,gres:nic:1");
    assertThat(sbatch.spec().getTresPerJob()).isEqualTo("gres:gpu:3");
    assertThat(sbatch.spec().getTresPerTask()).isEqualTo("gres:gpu:1");
    assertThat(sbatch.spec().getCpusPerTres()).isEqualTo("gres:gpu:4");
    assertThat(sbatch.spec().getMemPerTres()).isEqualTo("gres:gpu:1024");
    assertThat(sbatch.run("--gres=gpu:x:1:2", "--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.err).endsWith("sbatch: error: Invalid --gres specification\n");
  }

  @Test
  void gpuOptionsComeFromSbatchVariablesToo() {
    sbatch.env.put("SBATCH_GRES", "gpu:tesla:1");
    sbatch.env.put("SBATCH_GPUS", "2");
    assertThat(sbatch.run("--wrap", "true")).isZero();
    assertThat(sbatch.spec().getTresPerNode()).isEqualTo("gres:gpu:tesla:1");
    assertThat(sbatch.spec().getTresPerJob()).isEqualTo("gres:gpu:2");
  }

  @Test
  void arrayIsSentAsGiven() {
    assertThat(sbatch.run("--array=0-9%2", "--wrap", "true")).isZero();
    assertThat(sbatch.spec().getArray()).isEqualTo("0-9%2");
  }

  @Test
  void optionsWithoutEffectAreAccepted() {
    assertThat(sbatch.run("--mail-type=END", "-v", "--wrap", "t"))
        .isZero();
  }

  @Test
  void wckeyGoesIntoTheSpec() {
    assertThat(sbatch.run("--wckey=w", "--wrap", "t")).isZero();
    assertThat(sbatch.spec().getWckey()).isEqualTo("w");
  }

  @Test
  void signalGoesIntoTheSpec() {
    assertThat(sbatch.run("--signal=B:USR2@90", "--wrap", "t")).isZero();
    assertThat(sbatch.spec().getWarnSignal()).isEqualTo(12);
    assertThat(sbatch.spec().getWarnTimeS()).isEqualTo(90);
    assertThat(sbatch.spec().getWarnBatchOnly()).isTrue();
  }

  @Test
  void controllerRefusalUsesSlurmsText() {
    sbatch.response = Response.newBuilder().setErrorCode(2051).build();
    assertThat(sbatch.run("--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.err).isEqualTo("sbatch: error: Batch job submission failed: "
        + "Requested time limit is invalid (missing or exceeds some limit)\n");
  }

  @Test
  void unreachableControllerIsReported() {
    sbatch.failure = new IOException("connection refused");
    assertThat(sbatch.run("--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.err).isEqualTo("sbatch: error: Batch job submission failed: "
        + "Unable to contact slurm controller (connect failure)\n");
  }

  @Test
  void versionAndHelpNeedNoScript() {
    assertThat(sbatch.run("-V")).isZero();
    assertThat(sbatch.out).isEqualTo("slurm-wlm 22.05.8\n");
    FakeSubmitter help = new FakeSubmitter(dir);
    assertThat(help.run("--help", "--bad-value-never-read")).isEqualTo(255);
    assertThat(help.run("-h")).isZero();
    assertThat(help.out).startsWith("Usage: sbatch [OPTIONS(0)...]").endsWith("output version information and exit\n\n");
    assertThat(help.requests).isEmpty();
  }

  @Test
  void clustersNameTheLocalClusterAfterTheJobIdAndRefuseOthers() throws IOException {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=alpha\nNodeName=n1 CPUs=1\n");
    sbatch.env.put("SLURM_CONF", conf.toString());
    assertThat(sbatch.run("--parsable", "-M", "alpha", "--wrap", "true")).isZero();
    assertThat(sbatch.out).isEqualTo("42;alpha\n");
    assertThat(sbatch.run("--clusters=alpha,beta", "--wrap", "true")).isZero();
    assertThat(sbatch.out).isEqualTo("Submitted batch job 42 on cluster alpha\n");
    assertThat(sbatch.err).isEqualTo("sbatch: error: No cluster 'beta' known by database.\n");
    assertThat(sbatch.run("--parsable", "-M", "nosuch", "--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.out).isEmpty();
    assertThat(sbatch.err).isEqualTo("sbatch: error: No cluster 'nosuch' known by database.\n"
        + "sbatch: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list"
        + " clusters' to see available clusters.\n");
  }

  @Test
  void theJobLearnsItsWorkingClusterAndGpuOptionsAsOnTheReference() throws IOException {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=alpha\nSlurmctldHost=vm\nSlurmctldPort=48000\nNodeName=n1 CPUs=1\n");
    sbatch.env.put("SLURM_CONF", conf.toString());
    assertThat(sbatch.run("--gpus-per-task=1", "--gpu-bind=closest", "--wrap", "true")).isZero();
    // a 22.05 batch job's env on a cluster of that name, host and port (cons_tres)
    assertThat(sbatch.jobEnv()).containsEntry("SLURM_WORKING_CLUSTER", "alpha:vm:48000:9728:109")
        .containsEntry("SLURM_GPUS_PER_TASK", "1").containsEntry("SLURM_GPU_BIND", "closest");
  }

  @Test
  void waitAllNodesTakesZeroOrOne() throws IOException {
    assertThat(sbatch.run("--wait-all-nodes=1", "--wrap", "true")).isZero();
    assertThat(sbatch.run("--wait-all-nodes=2", "--wrap", "true")).isEqualTo(255);
    assertThat(sbatch.err).isEqualTo("sbatch: error: Invalid --wait-all-nodes specification\n");
    assertThat(sbatch.run("--wait-all-nodes=x", "--wrap", "true")).isEqualTo(1);
    assertThat(sbatch.err).isEqualTo("sbatch: error: Invalid numeric value \"x\" for --wait-all-nodes.\n");
  }
}
