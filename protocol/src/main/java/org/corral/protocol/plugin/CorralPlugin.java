package org.corral.protocol.plugin;

import java.util.List;

/**
 * Corral's one extension interface, for what Slurm sites do with SPANK plugins and job_submit
 * plugins: options added to sbatch, srun and salloc, a hook around each task's start on the node,
 * and a filter in the controller that may change or refuse a submitted job. Every method has a
 * default that does nothing, so a plugin implements only what it needs.
 *
 * <p>Plugins are found with {@link java.util.ServiceLoader} (a jar in PluginDir naming its class in
 * META-INF/services/org.corral.protocol.plugin.CorralPlugin, or one built into Corral) and enabled
 * by name in plugstack.conf beside slurm.conf ({@link PluginStack}); without that file no plugin is
 * looked for, so the commands' start-up pays nothing. The same plugin object is created in each
 * process that needs it (the commands, slurmctld, slurmd): keep no state across calls that one of
 * them would need from another; what a command learns travels in the job's or step's option
 * values ({@link JobDescriptor#pluginOptions}, {@link TaskLaunch#options}).
 */
public interface CorralPlugin {

  /** The name plugstack.conf enables it by (and its messages start with): e.g. "pyxis". */
  String name();

  /** Once, after loading, with the words after its name on its plugstack.conf line. */
  default void init(List<String> arguments) throws PluginException {}

  /** Options it adds to sbatch, srun and salloc (long options only, as SPANK's). */
  default List<PluginOption> options() {
    return List.of();
  }

  /**
   * In the command, for each of its options given (value null for one without a value): a bad
   * value is refused with {@link PluginException}, whose message the command prints as
   * "srun: error: MESSAGE" and exits.
   */
  default void checkOption(String option, String value) throws PluginException {}

  /**
   * In slurmctld, for each job submitted (before its limits are checked, as Slurm's job_submit
   * plugins run): may change the job, or refuse it by throwing {@link SubmitRefusal}.
   */
  default void filterSubmit(JobDescriptor job, SubmitContext context) throws SubmitRefusal {}

  /**
   * In slurmd, as root, before a batch script or a step's task starts as the user: may change its
   * command, environment and working directory (to run it in a container, under a tool, ...).
   * A {@link PluginException} fails the task: its message goes to the task's stderr and it exits 1.
   */
  default void beforeTask(TaskLaunch task) throws PluginException {}

  /** In slurmd, after the task has ended, with its wait(2) status: for clean-up. */
  default void afterTask(TaskLaunch task, int waitStatus) {}
}
