package org.corral.slurmd.hooks;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeHookRequest;
import org.corral.slurmd.launch.LaunchHooks;
import org.corral.slurmd.launch.SpoolScripts;

/**
 * This node's hooks around batch jobs, from slurm.conf: the Prolog before the script and the
 * Epilog after it, as root; TaskProlog/TaskEpilog as the user, through task-hooks.sh (installed
 * in the spool) which runs in the job's environment; the UnkillableStepTimeout check.
 */
public final class NodeJobHooks implements LaunchHooks {
  private static final System.Logger LOG = System.getLogger("slurmd");
  static final String TASK_SHELL = "task-hooks.sh";

  private volatile HookSettings settings;
  private final String nodeName;
  private final String confPath;
  private final Path taskShell;

  /** Installs task-hooks.sh into {@code spoolDir} when TaskProlog or TaskEpilog is set. */
  public NodeJobHooks(HookSettings settings, String nodeName, String confPath, Path spoolDir)
      throws IOException {
    this.settings = settings;
    this.nodeName = nodeName;
    this.confPath = confPath;
    this.taskShell = spoolDir.resolve(TASK_SHELL);
    if (settings.taskProlog().isPresent() || settings.taskEpilog().isPresent()) {
      install(spoolDir);
    }
  }

  /**
   * The Prolog, Epilog and their timeout for jobs from now on (scontrol reconfigure). TaskProlog
   * and TaskEpilog are set when the daemon starts.
   */
  public void settings(HookSettings next) {
    this.settings = next;
  }

  @Override
  public boolean hasProlog() {
    // Even without a Prolog the job's hook environment is kept for the Epilog.
    return settings.prolog().isPresent() || settings.epilog().isPresent();
  }

  @Override
  public boolean prolog(LaunchBatchRequest request, Path jobDir) {
    Map<String, String> env = HookEnvironment.of(request, nodeName, confPath);
    try {
      HookEnvironment.save(env, jobDir);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "job " + request.getJob().getJobId()
          + ": cannot keep the Epilog's environment: " + e.getMessage());
    }
    if (settings.prolog().isEmpty()) {
      return true;
    }
    int rc = new HookProgram(settings.prolog().get(), "prolog")
        .run(HookEnvironment.prolog(settings.path(), env), settings.prologEpilogTimeout());
    if (rc != 0) {
      LOG.log(Level.ERROR, "[job " + request.getJob().getJobId() + "] prolog failed status="
          + (rc < 0 ? 0 : rc) + ":0");
    }
    return rc == 0;
  }

  @Override
  public boolean hasEpilog() {
    return settings.epilog().isPresent();
  }

  @Override
  public boolean epilog(int jobId, Path jobDir, int exitStatus) {
    Map<String, String> env = HookEnvironment.load(jobDir);
    if (env.isEmpty()) {
      env.put("SLURM_CONF", confPath);
      env.put("SLURMD_NODENAME", nodeName);
      env.put("SLURM_JOB_ID", Integer.toUnsignedString(jobId));
      env.put("SLURM_JOBID", Integer.toUnsignedString(jobId));
    }
    int rc = new HookProgram(settings.epilog().get(), "epilog")
        .run(HookEnvironment.epilog(settings.path(), env, exitStatus), settings.prologEpilogTimeout());
    if (rc != 0) {
      LOG.log(Level.ERROR, "[job " + jobId + "] epilog failed status=" + (rc < 0 ? 0 : rc) + ":0");
    }
    return rc == 0;
  }

  /**
   * A job's Prolog (PrologFlags=Alloc) or Epilog on this node when it is not the job's batch
   * host, as the controller ordered. Blocking; false when the program failed.
   */
  public boolean runForAllocation(NodeHookRequest req) {
    Map<String, String> job = HookEnvironment.of(req.getJob(), req.getClusterName(), nodeName, confPath);
    Optional<String> program = req.getEpilog() ? settings.epilog() : settings.prolog();
    if (program.isEmpty()) {
      return true;
    }
    Map<String, String> env = req.getEpilog()
        ? HookEnvironment.epilog(settings.path(), job, req.getExitStatus())
        : HookEnvironment.prolog(settings.path(), job);
    String what = req.getEpilog() ? "epilog" : "prolog";
    int rc = new HookProgram(program.get(), what).run(env, settings.prologEpilogTimeout());
    if (rc != 0) {
      LOG.log(Level.ERROR, "[job " + req.getJob().getJobId() + "] " + what + " failed status="
          + (rc < 0 ? 0 : rc) + ":0");
    }
    return rc == 0;
  }

  @Override
  public List<String> scriptPrefix() {
    if (settings.taskProlog().isEmpty() && settings.taskEpilog().isEmpty()) {
      return List.of();
    }
    return List.of("/bin/sh", taskShell.toString(), settings.taskProlog().orElse(""),
        settings.taskEpilog().orElse(""));
  }

  @Override
  public int unkillableTimeoutSeconds() {
    return settings.unkillableStepTimeout();
  }

  private static void install(Path spoolDir) throws IOException {
    Files.createDirectories(spoolDir);
    SpoolScripts.install(spoolDir, TASK_SHELL, NodeJobHooks.class);
  }

}
