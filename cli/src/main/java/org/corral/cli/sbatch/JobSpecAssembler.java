package org.corral.cli.sbatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.JobSpec;

/** Turns the final options and script into the JobSpec sent to the controller. */
final class JobSpecAssembler {

  private final SubmitterFacts facts;
  private final Map<String, String> env;

  JobSpecAssembler(SubmitterFacts facts, Map<String, String> env) {
    this.facts = facts;
    this.env = env;
  }

  /**
   * @param scriptName the script operand, or null for stdin and --wrap
   * @param scriptArgs the operands after it
   */
  JobSpec assemble(SbatchOptions o, BatchScript script, String scriptName, List<String> scriptArgs) {
    Path cwd = facts.currentDirectory(env);
    Path workDir = o.chdir == null ? cwd : cwd.resolve(o.chdir).normalize();
    String name = o.jobName != null ? o.jobName
        : o.wrap != null ? "wrap"
        : scriptName == null ? "sbatch"
        : baseName(scriptName);
    String host = facts.hostname();

    Map<String, String> slurm = new LinkedHashMap<>();
    slurm.put("SLURM_JOB_NAME", name);
    slurm.putAll(facts.processVariables());
    slurm.put("SLURM_SUBMIT_DIR", cwd.toString());
    slurm.put("SLURM_SUBMIT_HOST", host);

    JobSpec.Builder b = JobSpec.newBuilder()
        .setName(name)
        .setScript(script.text())
        .addAllEnvironment(ExportedEnvironment.build(o.export, env, slurm))
        .setWorkDir(workDir.toString())
        .setSubmitHost(host)
        .setAllocSid(facts.sessionId())
        .setCommand(scriptName == null ? "" : commandPath(scriptName, workDir))
        .addAllArgv(scriptArgs)
        .setExportEnv(o.export == null ? "" : o.export)
        .setExclusive(o.exclusive)
        .setExclusiveUser(o.exclusiveUser)
        .setOversubscribe(o.oversubscribe)
        .setContiguous(o.contiguous)
        .setHold(o.hold);
    setIfPresent(o.output, b::setStdOut);
    setIfPresent(o.error, b::setStdErr);
    setIfPresent(o.input, b::setStdIn);
    setIfPresent(o.partition, b::setPartition);
    setIfPresent(o.dependency, b::setDependency);
    setIfPresent(o.array, b::setArray);
    setIfPresent(o.nodeList, b::setReqNodes);
    setIfPresent(o.excludeList, b::setExcNodes);
    setIfPresent(o.constraint, b::setConstraint);
    setIfPresent(o.licenses, b::setLicenses);
    setIfPresent(o.reservation, b::setReservation);
    setIfPresent(o.account, b::setAccount);
    setIfPresent(o.qos, b::setQos);
    setIfPresent(o.openMode, b::setOpenMode);
    setIfPresent(o.comment, b::setComment);
    setIfPresent(o.wckey, b::setWckey);
    if (o.minNodes != null) {
      b.setMinNodes(o.minNodes).setMaxNodes(o.maxNodes);
    }
    if (o.ntasks != null) {
      b.setNumTasks(o.ntasks);
    }
    if (o.cpusPerTask != null) {
      b.setCpusPerTask(o.cpusPerTask);
    }
    if (o.ntasksPerNode != null) {
      b.setNtasksPerNode(o.ntasksPerNode);
    }
    if (o.timeLimitMin != null) {
      b.setTimeLimitMin((int) (long) o.timeLimitMin);
    }
    if (o.memMb != null) {
      b.setMemPerNodeMb(o.memMb);
    }
    if (o.memPerCpuMb != null) {
      b.setMemPerCpuMb(o.memPerCpuMb);
    }
    if (o.requeue != null) {
      b.setRequeue(o.requeue);
    }
    o.gres.applyTo(b);
    if (o.nice != null) {
      b.setNice(o.nice);
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
