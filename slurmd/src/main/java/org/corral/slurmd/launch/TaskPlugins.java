package org.corral.slurmd.launch;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.container.OciConf;
import org.corral.protocol.plugin.PluginException;
import org.corral.protocol.plugin.PluginStack;
import org.corral.protocol.plugin.TaskLaunch;
import org.corral.slurmd.container.OciContainer;

/**
 * What may change a user's process just before it starts on this node: --container (oci.conf)
 * and the plugins of plugstack.conf ({@code CorralPlugin.beforeTask}), in that order. Their
 * refusal does not lose the task: it runs a command that prints the message on the task's stderr
 * and exits 1, so the job or step fails as any failing command does and the node stays healthy.
 */
public final class TaskPlugins {
  private static final System.Logger LOG = System.getLogger("slurmd");

  public static final TaskPlugins NONE = new TaskPlugins(PluginStack.EMPTY, Optional.empty(), Path.of("/"),
      Path.of("/"));

  private final PluginStack stack;
  private final Optional<OciContainer> oci;
  private final Path confDir;
  private final Path spoolDir;

  TaskPlugins(PluginStack stack, Optional<OciContainer> oci, Path confDir, Path spoolDir) {
    this.stack = stack;
    this.oci = oci;
    this.confDir = confDir;
    this.spoolDir = spoolDir;
  }

  /** The plugins and oci.conf beside slurm.conf. */
  public static TaskPlugins load(SlurmConfig cfg, Path spool) throws IOException {
    Path confDir = cfg.path().toAbsolutePath().getParent();
    PluginStack stack;
    try {
      stack = PluginStack.forConfig(cfg.path(), cfg.get("PlugStackConfig").orElse(null),
          cfg.get("PluginDir").orElse(null));
    } catch (PluginException e) {
      throw new IOException(e.getMessage(), e);
    }
    Optional<OciContainer> oci = OciConf.load(confDir).map(OciContainer::new);
    if (oci.isPresent() || !stack.isEmpty()) {
      LOG.log(Level.INFO, "task plugins: " + stack.plugins().stream().map(p -> p.name()).toList()
          + (oci.isPresent() ? ", oci.conf" : ""));
    }
    return new TaskPlugins(stack, oci, confDir, spool);
  }

  /**
   * The launch as the plugins leave it.
   *
   * @param prefix how many leading words of the command are the TaskProlog/TaskEpilog wrapper, kept in front
   * @param taskId the task's global id, -1 for a batch script
   * @param container --container's bundle ("" none)
   */
  public UserLaunch apply(UserLaunch launch, int prefix, int jobId, int taskId, String container,
      Map<String, String> options) {
    if (stack.isEmpty() && container.isEmpty()) {
      return launch;
    }
    List<String> wrapper = launch.command().subList(0, prefix);
    TaskLaunch task = new TaskLaunch(launch.kind() == UserLaunch.Kind.BATCH ? TaskLaunch.Kind.BATCH
        : TaskLaunch.Kind.TASK, jobId, launch.step(), taskId, launch.uid(), launch.gid(), userName(launch),
        launch.node(), container, options, confDir, spoolDir, launch.workDir(),
        launch.command().subList(prefix, launch.command().size()), launch.environment());
    List<String> command = new ArrayList<>(wrapper);
    try {
      if (!container.isEmpty()) {
        oci.orElseThrow(() -> new PluginException("slurmstepd: error: container support is not configured "
            + "(no oci.conf): " + SlurmError.CONTAINER_NOT_CONFIGURED.message())).wrap(task);
      }
      stack.beforeTask(task);
      command.addAll(task.command());
    } catch (PluginException | RuntimeException e) {
      LOG.log(Level.INFO, "step " + launch.step() + ": " + e.getMessage());
      command = List.of("/bin/sh", "-c", "printf '%s\\n' \"$1\" >&2; exit 1", "corral-plugin",
          e.getMessage() == null ? e.toString() : e.getMessage());
      return copy(launch, launch.workDir(), launch.environment(), command);
    }
    return copy(launch, task.workDir(), task.environmentList(), command);
  }

  private static String userName(UserLaunch launch) {
    for (String e : launch.environment()) {
      if (e.startsWith("SLURM_JOB_USER=")) {
        return e.substring("SLURM_JOB_USER=".length());
      }
    }
    return Integer.toUnsignedString(launch.uid());
  }

  private static UserLaunch copy(UserLaunch l, String workDir, List<String> environment, List<String> command) {
    return new UserLaunch(l.kind(), l.uid(), l.gid(), l.node(), l.step(), workDir, l.stdIn(), l.stdOut(), l.stdErr(),
        l.append(), l.umask(), environment, command, l.cgroupProcs(), l.cores());
  }
}
