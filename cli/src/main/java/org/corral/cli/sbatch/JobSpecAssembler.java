package org.corral.cli.sbatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.ZonedDateTime;
import org.corral.cli.submit.ClusterFacts;
import org.corral.cli.submit.CommandFailure;
import org.corral.cli.submit.ResourceOptions;
import org.corral.cli.submit.ResourceRequest;
import org.corral.protocol.msg.JobSpec;

/** Turns the final options and script into the JobSpec sent to the controller. */
final class JobSpecAssembler {

  private final SubmitterFacts facts;
  private final Map<String, String> env;
  private final ZonedDateTime now;

  JobSpecAssembler(SubmitterFacts facts, Map<String, String> env, ZonedDateTime now) {
    this.facts = facts;
    this.env = env;
    this.now = now;
  }

  /**
   * @param scriptName the script operand, or null for stdin and --wrap
   * @param scriptArgs the operands after it
   */
  JobSpec assemble(SbatchOptions o, BatchScript script, String scriptName, List<String> scriptArgs)
      throws CommandFailure {
    ResourceOptions r = o.allocation;
    Path cwd = facts.currentDirectory(env);
    Path workDir = r.chdir == null ? cwd : cwd.resolve(r.chdir).normalize();
    String name = r.jobName != null ? r.jobName
        : o.wrap != null ? "wrap"
        : scriptName == null ? "sbatch"
        : baseName(scriptName);
    String host = facts.hostname();

    Map<String, String> slurm = new LinkedHashMap<>();
    slurm.put("SLURM_JOB_NAME", name);
    slurm.putAll(facts.processVariables());
    slurm.put("SLURM_SUBMIT_DIR", cwd.toString());
    slurm.put("SLURM_SUBMIT_HOST", host);
    slurm.putAll(r.gres.variables());
    ClusterFacts cluster = ClusterFacts.load(env);
    if (!cluster.clusterName().isEmpty()) { // where srun inside reaches the controller (22.05's batch env)
      slurm.put("SLURM_WORKING_CLUSTER", cluster.workingCluster());
    }

    JobSpec.Builder b = JobSpec.newBuilder()
        .setName(name)
        .setScript(script.text())
        .addAllEnvironment(ExportedEnvironment.build(o.export, env, slurm))
        .setWorkDir(workDir.toString())
        .setSubmitHost(host)
        .setAllocSid(facts.sessionId())
        .setCommand(scriptName == null ? "" : commandPath(scriptName, workDir))
        .addAllArgv(scriptArgs)
        .setExportEnv(o.export == null ? "" : o.export);
    ResourceRequest.apply(r, b, "sbatch", now);
    setIfPresent(o.output, b::setStdOut);
    setIfPresent(o.error, b::setStdErr);
    setIfPresent(o.input, b::setStdIn);
    setIfPresent(o.array, b::setArray);
    setIfPresent(o.openMode, b::setOpenMode);
    if (o.requeue != null) {
      b.setRequeue(o.requeue);
    }
    if (o.warnSignal != null) {
      b.setWarnSignal(o.warnSignal.signal()).setWarnTimeS(o.warnSignal.seconds())
          .setWarnBatchOnly(o.warnSignal.batchOnly()).setWarnReservation(o.warnSignal.reservation());
    }
    return b.build();
  }

  /**
   * The script's path as Slurm records it: a bare relative name found in the working directory
   * becomes absolute; absolute paths, "./" and "../" forms, and names not found stay as given.
   */
  static String commandPath(String scriptName, Path workDir) {
    if (scriptName.startsWith("/") || scriptName.startsWith("./") || scriptName.startsWith("../")) {
      return scriptName;
    }
    Path candidate = workDir.resolve(scriptName);
    return Files.isRegularFile(candidate) ? candidate.toString() : scriptName;
  }

  private static String baseName(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }

  private static void setIfPresent(String value, java.util.function.Consumer<String> setter) {
    if (value != null) {
      setter.accept(value);
    }
  }
}
