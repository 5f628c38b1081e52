package org.corral.slurmd.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.container.ContainerRun;
import org.corral.protocol.container.OciConf;
import org.corral.protocol.plugin.PluginException;
import org.corral.protocol.plugin.TaskLaunch;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Slurm's --container=BUNDLE (oci.conf): the task runs in the user's OCI bundle through the
 * runtime oci.conf names, as the user. The bundle's config.json is taken as the user wrote it
 * (their user namespace and mappings, mounts, ...) with the task put in: its command
 * (process.args), its environment less RunTimeEnvExclude (process.env), its working directory when
 * the root has it, the root's absolute path, and the task's spool directory at MountSpoolDir.
 * The modified config.json goes into a bundle directory of the task's own (%b); the root stays
 * the user's (%r).
 */
public final class OciContainer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PREFIX = "slurmstepd: error: ";

  private final OciConf conf;

  public OciContainer(OciConf conf) {
    this.conf = conf;
  }

  /** Rewrites the task to run in its bundle. */
  public void wrap(TaskLaunch task) throws PluginException {
    Path given = Path.of(task.workDir()).resolve(task.container()).normalize();
    Path configFile = given.resolve("config.json");
    // Read as root, on the user's behalf: only a bundle the user may read is taken.
    if (!ownedOrReadable(given, task.uid()) || !ownedOrReadable(configFile, task.uid())) {
      throw new PluginException(PREFIX + "container: " + given + " is not an OCI bundle: no config.json "
          + "(or not readable by " + task.userName() + ")");
    }
    ObjectNode config;
    try {
      JsonNode tree = JSON.readTree(Files.readString(configFile));
      if (!(tree instanceof ObjectNode o) || !(o.get("root") instanceof ObjectNode)) {
        throw new PluginException(PREFIX + "container: " + configFile + " is not an OCI runtime configuration "
            + "(no root)");
      }
      config = o;
    } catch (IOException | JacksonException e) {
      throw new PluginException(PREFIX + "container: cannot read " + configFile + ": " + e.getMessage(), e);
    }
    ObjectNode root = (ObjectNode) config.get("root");
    Path rootfs = given.resolve(root.path("path").asString("rootfs")).normalize();
    if (!Files.isDirectory(rootfs)) {
      throw new PluginException(PREFIX + "container: " + given + " is not an OCI bundle: its root " + rootfs
          + " is not a directory");
    }
    root.put("path", rootfs.toString());
    ObjectNode process = config.has("process") && config.get("process") instanceof ObjectNode p ? p
        : config.putObject("process");
    process.put("terminal", false);
    ArrayNode args = process.putArray("args");
    task.command().forEach(args::add);
    ArrayNode env = process.putArray("env");
    task.environment().forEach((k, v) -> {
      if (!conf.excludes(k)) {
        env.add(k + "=" + (k.equals("PATH") ? org.corral.protocol.container.PyxisPlugin.containerPath(v) : v));
      }
    });
    if (Files.isDirectory(rootfs.resolve(task.workDir().replaceFirst("^/+", "")))) {
      process.put("cwd", task.workDir());
    }
    try {
      Path base = conf.containerPath().isEmpty() ? task.spoolDir().resolve("containers")
          : Path.of(conf.containerPath());
      Path bundle = ContainerRun.userDirectory(base.resolve("bundles"),
          task.jobId() + "." + task.stepId() + "." + task.taskId(), task.uid(), task.gid());
      ArrayNode mounts = config.has("mounts") && config.get("mounts") instanceof ArrayNode a ? a
          : config.putArray("mounts");
      if (task.kind() == TaskLaunch.Kind.BATCH) { // the script lives in the node's spool: bound in where it is named
        ObjectNode m = mounts.addObject();
        m.put("destination", task.command().get(0)).put("type", "none").put("source", task.command().get(0));
        m.putArray("options").add("bind").add("ro");
      }
      if (!conf.mountSpoolDir().isEmpty()) {
        ObjectNode m = mounts.addObject();
        m.put("destination", conf.mountSpoolDir()).put("type", "none").put("source", bundle.toString());
        m.putArray("options").add("rbind").add("rw");
      }
      String envFile = conf.createEnvFile() ? bundle.resolve("env").toString() : "";
      Map<Character, String> values = new HashMap<>();
      values.put('b', bundle.toString());
      values.put('e', envFile);
      values.put('j', Integer.toUnsignedString(task.jobId()));
      values.put('m', bundle.toString());
      values.put('n', task.nodeName());
      values.put('r', rootfs.toString());
      values.put('s', task.stepId());
      values.put('t', Integer.toString(task.taskId()));
      values.put('u', task.userName());
      values.put('U', Integer.toUnsignedString(task.uid()));
      List<String> command = new ContainerRun(bundle, JSON.writeValueAsString(config), "none", "", bundle, "",
          ContainerRun.Runtime.of(conf, values, task.command()), envFile, envText(task), PREFIX).command();
      task.command().clear();
      task.command().addAll(command);
    } catch (IOException e) {
      throw new PluginException(PREFIX + "container: cannot prepare the bundle: " + e.getMessage(), e);
    }
  }

  private String envText(TaskLaunch task) {
    StringBuilder s = new StringBuilder();
    task.environment().forEach((k, v) -> {
      if (!conf.excludes(k) && v.indexOf('\n') < 0) {
        s.append(k).append('=').append(v).append('\n');
      }
    });
    return s.toString();
  }

  /** The user owns the path, or others may read it. */
  private static boolean ownedOrReadable(Path p, int uid) {
    try {
      if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.exists(p)) {
        return false;
      }
      int owner = (Integer) Files.getAttribute(p, "unix:uid");
      int mode = (Integer) Files.getAttribute(p, "unix:mode");
      return owner == uid || (mode & 0004) != 0;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
