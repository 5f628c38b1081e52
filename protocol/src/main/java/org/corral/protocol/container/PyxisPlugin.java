package org.corral.protocol.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.plugin.CorralPlugin;
import org.corral.protocol.plugin.PluginException;
import org.corral.protocol.plugin.PluginOption;
import org.corral.protocol.plugin.TaskLaunch;

/**
 * Pyxis's options (NVIDIA's SPANK plugin, with enroot underneath) built on Corral's plugin point:
 * enabled by "required spank_pyxis.so" (or "required pyxis") in plugstack.conf. The task runs
 * rootless as the user in a container made from --container-image: a squashfs file, a
 * docker-archive: or oci-archive: tarball, a directory, or an image of the node's store
 * ({@code image_store=DIR} on the plugstack line), unpacked once per user and node and reused.
 * The runtime underneath is runc (docs/adr/0009-container-runtime.md); {@code runtime=PATH} names
 * another with runc's command line (crun). Option values are checked with Pyxis's messages.
 */
public final class PyxisPlugin implements CorralPlugin {

  static final String PREFIX = "pyxis: ";
  private static final String STEP_PREFIX = "slurmstepd: error: pyxis: ";

  private String runtime = "runc";
  private Path imageStore;
  private Path cacheDir;

  @Override
  public String name() {
    return "pyxis";
  }

  @Override
  public void init(List<String> arguments) throws PluginException {
    for (String a : arguments) {
      int eq = a.indexOf('=');
      String key = eq < 0 ? a : a.substring(0, eq);
      String value = eq < 0 ? "" : a.substring(eq + 1);
      switch (key) {
        case "runtime" -> runtime = value;
        case "image_store" -> imageStore = Path.of(value);
        case "cache" -> cacheDir = Path.of(value);
        // Pyxis's own settings that change nothing here
        case "remap_root", "execute_entrypoint", "container_scope", "sbatch_support", "use_enroot_load",
            "container_image_save" -> { }
        default -> throw new PluginException("unknown argument: " + a);
      }
    }
  }

  @Override
  public List<PluginOption> options() {
    return List.of(
        new PluginOption("container-image", "[USER@][REGISTRY#]IMAGE[:TAG]|PATH",
            "the image to use for the container filesystem: a squashfs file, docker-archive:PATH, oci-archive:PATH "
            + "or a directory on the node, or an image of the node's store"),
        new PluginOption("container-mounts", "SRC:DST[:FLAGS][,SRC:DST...]",
            "bind mount[s] inside the container. Mount flags are separated with \"+\", e.g. \"ro+rprivate\""),
        new PluginOption("container-workdir", "PATH", "working directory inside the container"),
        new PluginOption("container-name", "NAME", "name to use for saving and loading the container on the host. "
            + "Unnamed containers are removed after the slurm task is complete; named containers are not. If a "
            + "container with this name already exists, the existing container is used and the import is skipped."),
        new PluginOption("container-mount-home", null, "bind mount the user's home directory"),
        new PluginOption("no-container-mount-home", null, "do not bind mount the user's home directory"),
        new PluginOption("container-remap-root", null, "ask to be remapped to root inside the container. "
            + "Does not grant elevated system permissions, despite appearances."),
        new PluginOption("no-container-remap-root", null, "do not remap to root inside the container"),
        new PluginOption("container-writable", null, "make the container filesystem writable"),
        new PluginOption("container-readonly", null, "make the container filesystem read-only"),
        new PluginOption("container-env", "NAME[,NAME...]", "names of environment variables to override with the "
            + "host environment"));
  }

  @Override
  public void checkOption(String option, String value) throws PluginException {
    switch (option) {
      case "container-image", "container-workdir" -> requireValue(option, value);
      case "container-mounts" -> parseMounts(value);
      case "container-name" -> containerName(value);
      case "container-env" -> {
        requireValue(option, value);
        for (String name : value.split(",", -1)) {
          if (name.isEmpty()) {
            throw new PluginException(PREFIX + "--container-env: invalid format: " + value);
          }
        }
      }
      default -> { }
    }
  }

  private static void requireValue(String option, String value) throws PluginException {
    if (value == null || value.isEmpty()) {
      throw new PluginException(PREFIX + "--" + option + ": argument required");
    }
  }

  /** --container-mounts, as Pyxis reads it: SRC[:DST[:FLAGS]] entries, comma-separated, flags joined by '+'. */
  static List<OciSpec.Mount> parseMounts(String value) throws PluginException {
    requireValue("container-mounts", value);
    List<OciSpec.Mount> mounts = new ArrayList<>();
    for (String entry : value.split(",", -1)) {
      String[] parts = entry.split(":", 3);
      if (parts[0].isEmpty() || (parts.length > 1 && parts[1].isEmpty())) {
        throw new PluginException(PREFIX + "--container-mounts: invalid format: " + entry);
      }
      String src = parts[0];
      String dst = parts.length > 1 ? parts[1] : src;
      if (!(src.startsWith("/") || src.startsWith(".") || src.equals("tmpfs"))) {
        throw new PluginException(src.equals("umount") ? PREFIX + "mount source \"umount\" is not supported by Corral"
            : PREFIX + "mount source must be a relative path, an absolute path, \"tmpfs\" or \"umount\"");
      }
      if (!(dst.startsWith("/") || dst.startsWith("."))) {
        throw new PluginException(PREFIX + "mount target must be a relative path or an absolute path");
      }
      List<String> flags = parts.length > 2 && !parts[2].isEmpty() ? List.of(parts[2].split("\\+")) : List.of();
      mounts.add(new OciSpec.Mount(src, dst, flags));
    }
    return mounts;
  }

  private static String containerName(String value) throws PluginException {
    requireValue("container-name", value);
    String[] parts = value.split(":", 2);
    if (parts[0].isEmpty()) {
      throw new PluginException(PREFIX + "--container-name: empty name");
    }
    String flag = parts.length > 1 && !parts[1].isEmpty() ? parts[1] : "auto";
    if (!List.of("auto", "create", "exec", "no_exec").contains(flag)) {
      throw new PluginException(PREFIX + "--container-name: flag must be \"auto\", \"create\", \"exec\" or \"no_exec\"");
    }
    if (!parts[0].matches("[A-Za-z0-9_.-]+")) {
      throw new PluginException(PREFIX + "--container-name: invalid name: " + parts[0]);
    }
    return parts[0];
  }

  @Override
  public void beforeTask(TaskLaunch task) throws PluginException {
    Map<String, String> o = task.options();
    String image = o.get("container-image");
    String name = o.containsKey("container-name") ? containerName(o.get("container-name")) : null;
    if (image == null && name == null) {
      return; // not a container task
    }
    both(o, "container-writable", "container-readonly");
    both(o, "container-mount-home", "no-container-mount-home");
    both(o, "container-remap-root", "no-container-remap-root");
    // runc maps only the container's root to the user (see OciSpec.user); crun maps the user to themselves
    boolean remapRoot = o.containsKey("container-remap-root") || !runtime.endsWith("crun");
    boolean writable = o.containsKey("container-writable") || (name != null && !o.containsKey("container-readonly"));
    Path base = cacheDir != null ? cacheDir : task.spoolDir().resolve("containers");
    try {
      Path bundle = ContainerRun.userDirectory(base.resolve("bundles"),
          task.jobId() + "." + task.stepId() + "." + task.taskId(), task.uid(), task.gid());
      Path cache = ContainerRun.userDirectory(base.resolve("images"), Integer.toUnsignedString(task.uid()),
          task.uid(), task.gid());
      String[] kindAndPath = image == null ? new String[] {"none", ""} : resolveImage(image, task.workDir());
      String rootfs = name != null ? "copy:" + cache.resolve("named").resolve(task.jobId() + "_" + name)
          : writable ? "copy:" + bundle.resolve("private") : "shared";
      if (image == null && !Files.isDirectory(cache.resolve("named").resolve(task.jobId() + "_" + name))) {
        throw new PluginException(PREFIX + "--container-name: no container named " + name
            + " in this job on this node, and no --container-image to create it from");
      }
      OciSpec spec = new OciSpec().user(task.uid(), task.gid(), remapRoot).args(task.command())
          .env(environment(task)).readonly(!writable);
      String workdir = o.get("container-workdir");
      if (workdir != null) {
        spec.cwd(workdir);
      }
      if (o.containsKey("container-mounts")) {
        for (OciSpec.Mount m : parseMounts(o.get("container-mounts"))) {
          String src = m.source().startsWith(".") ? Path.of(task.workDir()).resolve(m.source()).normalize().toString()
              : m.source();
          spec.mount(new OciSpec.Mount(src, m.destination(), m.options()));
        }
      }
      String home = task.environment().get("HOME");
      if (o.containsKey("container-mount-home") && home != null && home.startsWith("/")) {
        spec.mount(new OciSpec.Mount(home, home, List.of()));
      }
      gpuDevices(task).forEach(spec::mount);
      if (task.kind() == TaskLaunch.Kind.BATCH) {
        // the batch script lives in the node's spool: it is bound in where the command names it
        String script = task.command().get(0);
        spec.mount(new OciSpec.Mount(script, script, List.of("ro")));
      }
      String id = "corral-" + task.nodeName() + "-" + task.jobId() + "." + task.stepId() + "." + task.taskId();
      // runc's own log (warnings about cgroups it may not use) stays out of the task's stderr; its
      // errors reach stderr anyway
      String root = "--root=/tmp/corral-runc-" + Integer.toUnsignedString(task.uid()) + " --log="
          + OciPattern.quote(bundle.resolve("runtime.log").toString());
      String rt = OciPattern.quote(runtime);
      ContainerRun.Runtime commands = new ContainerRun.Runtime(
          rt + " --rootless=true " + root + " run --bundle " + OciPattern.quote(bundle.toString()) + " "
              + OciPattern.quote(id), "", "", "",
          rt + " --rootless=true " + root + " kill " + OciPattern.quote(id) + " KILL",
          rt + " --rootless=true " + root + " delete --force " + OciPattern.quote(id));
      List<String> command = new ContainerRun(bundle, spec.toJson(), kindAndPath[0], kindAndPath[1], cache, rootfs,
          commands, "", "", STEP_PREFIX).command();
      task.command().clear();
      task.command().addAll(command);
    } catch (IOException e) {
      throw new PluginException(STEP_PREFIX + "cannot prepare the container: " + e.getMessage(), e);
    }
  }

  private static void both(Map<String, String> o, String yes, String no) throws PluginException {
    if (o.containsKey(yes) && o.containsKey(no)) {
      throw new PluginException(PREFIX + "both --" + yes + " and --" + no + " were specified");
    }
  }

  /** How an image is stored and where: {kind, path}. */
  private String[] resolveImage(String image, String workDir) throws PluginException {
    for (String kind : List.of("docker-archive", "oci-archive", "squashfs", "dir")) {
      if (image.startsWith(kind + ":")) {
        return new String[] {kind, absolute(image.substring(kind.length() + 1), workDir)};
      }
    }
    if (image.startsWith("/") || image.startsWith(".")) {
      String path = absolute(image, workDir);
      return new String[] {Files.isDirectory(Path.of(path)) ? "dir" : "squashfs", path};
    }
    // an enroot URI: [USER@][REGISTRY#]IMAGE[:TAG], looked for in the node's store
    String bare = image.substring(image.indexOf('@') + 1);
    String file = bare.replace('#', '+').replace('/', '+');
    if (imageStore != null) {
      for (String suffix : List.of(".sqsh", ".squashfs", "")) {
        Path candidate = imageStore.resolve(file + suffix);
        if (Files.isRegularFile(candidate)) {
          return new String[] {"squashfs", candidate.toString()};
        }
      }
    }
    throw new PluginException(STEP_PREFIX + "failed to import docker image " + image
        + ": not in this node's image store" + (imageStore == null ? "" : " (" + imageStore + ")")
        + " and no registry is reachable from Corral's nodes");
  }

  /**
   * The host's PATH with the standard directories it lacks added at its end: an image's programs
   * are in /bin and /usr/bin whatever the host's layout (a merged-/usr host may list only /usr/bin).
   */
  public static String containerPath(String hostPath) {
    List<String> dirs = new ArrayList<>(hostPath == null || hostPath.isEmpty() ? List.of()
        : List.of(hostPath.split(":")));
    for (String d : List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")) {
      if (!dirs.contains(d)) {
        dirs.add(d);
      }
    }
    return String.join(":", dirs);
  }

  private static String absolute(String path, String workDir) {
    return Path.of(workDir).resolve(path).normalize().toString();
  }

  /** The task's environment as the container gets it (Pyxis passes the host's), its PATH completed. */
  private static List<String> environment(TaskLaunch task) {
    Map<String, String> env = new LinkedHashMap<>(task.environment());
    env.put("PATH", containerPath(env.get("PATH")));
    List<String> list = new ArrayList<>();
    env.forEach((k, v) -> list.add(k + "=" + v));
    return list;
  }

  /** The device files of the GPUs the job was given (CUDA_VISIBLE_DEVICES), and NVIDIA's control devices. */
  private static List<OciSpec.Mount> gpuDevices(TaskLaunch task) {
    List<OciSpec.Mount> devices = new ArrayList<>();
    String visible = task.environment().get("CUDA_VISIBLE_DEVICES");
    if (visible == null || visible.isBlank()) {
      return devices;
    }
    List<String> files = new ArrayList<>(List.of("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
        "/dev/nvidia-modeset"));
    for (String index : visible.split(",")) {
      if (index.strip().matches("\\d+")) {
        files.add("/dev/nvidia" + index.strip());
      }
    }
    for (String f : files) {
      if (Files.exists(Path.of(f))) {
        devices.add(new OciSpec.Mount(f, f, List.of("dev")));
      }
    }
    return devices;
  }
}
