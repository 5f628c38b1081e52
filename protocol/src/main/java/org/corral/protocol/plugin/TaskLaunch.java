package org.corral.protocol.plugin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch script or a step's task about to start on a node, for {@link CorralPlugin#beforeTask}:
 * who runs it and what runs, which a plugin may change (to wrap the command in a container
 * runtime, say). The command and environment it leaves are exactly what the user's process gets.
 */
public final class TaskLaunch {

  /** A job's batch script, or one task of a step. */
  public enum Kind { BATCH, TASK }

  private final Kind kind;
  private final int jobId;
  private final String step;
  private final int taskId;
  private final int uid;
  private final int gid;
  private final String userName;
  private final String nodeName;
  private final String container;
  private final Map<String, String> options;
  private final Path confDir;
  private final Path spoolDir;
  private final List<String> command;
  private final Map<String, String> environment;
  private String workDir;

  /**
   * @param step "42.batch" or "42.0"
   * @param taskId the task's global id (SLURM_PROCID), -1 for a batch script
   * @param container --container's bundle, "" for none
   * @param confDir the directory of slurm.conf (and oci.conf, plugstack.conf)
   * @param spoolDir the node's SlurmdSpoolDir
   * @param environment "NAME=value" entries
   */
  public TaskLaunch(Kind kind, int jobId, String step, int taskId, int uid, int gid, String userName,
      String nodeName, String container, Map<String, String> options, Path confDir, Path spoolDir,
      String workDir, List<String> command, List<String> environment) {
    this.kind = kind;
    this.jobId = jobId;
    this.step = step;
    this.taskId = taskId;
    this.uid = uid;
    this.gid = gid;
    this.userName = userName;
    this.nodeName = nodeName;
    this.container = container;
    this.options = Map.copyOf(options);
    this.confDir = confDir;
    this.spoolDir = spoolDir;
    this.workDir = workDir;
    this.command = new ArrayList<>(command);
    this.environment = new LinkedHashMap<>();
    for (String e : environment) {
      int eq = e.indexOf('=');
      if (eq > 0) {
        this.environment.put(e.substring(0, eq), e.substring(eq + 1));
      }
    }
  }

  public Kind kind() {
    return kind;
  }

  public int jobId() {
    return jobId;
  }

  /** "42.batch" or "42.0". */
  public String step() {
    return step;
  }

  /** The step's id as Slurm numbers it ("batch" for the batch script). */
  public String stepId() {
    return step.substring(step.indexOf('.') + 1);
  }

  /** The task's global id (SLURM_PROCID); 0 for a batch script. */
  public int taskId() {
    return Math.max(taskId, 0);
  }

  public int uid() {
    return uid;
  }

  public int gid() {
    return gid;
  }

  public String userName() {
    return userName;
  }

  public String nodeName() {
    return nodeName;
  }

  /** --container's OCI bundle, "" when none was asked for. */
  public String container() {
    return container;
  }

  /** The values of plugins' options the job or step was given (read-only). */
  public Map<String, String> options() {
    return options;
  }

  public Path confDir() {
    return confDir;
  }

  public Path spoolDir() {
    return spoolDir;
  }

  public String workDir() {
    return workDir;
  }

  public void setWorkDir(String workDir) {
    this.workDir = workDir;
  }

  /** The command and its arguments (changeable). */
  public List<String> command() {
    return command;
  }

  /** The environment (changeable, in order). */
  public Map<String, String> environment() {
    return environment;
  }

  /** The environment as "NAME=value" entries. */
  public List<String> environmentList() {
    List<String> list = new ArrayList<>(environment.size());
    environment.forEach((k, v) -> list.add(k + "=" + v));
    return list;
  }
}
