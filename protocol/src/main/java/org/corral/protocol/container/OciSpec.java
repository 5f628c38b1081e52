package org.corral.protocol.container;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.JsonWriter;

/**
 * The config.json of a rootless container made from an image: the user's own id mapped into a
 * user namespace (as themselves, or as root with --container-remap-root, which grants nothing on
 * the host), its own mount, PID and IPC namespaces, the host's network and hostname, /proc, a small
 * /dev with the host's basic devices and the job's GPUs, and the binds asked for.
 */
public final class OciSpec {

  /** A bind mount (or a tmpfs when source is "tmpfs"), with extra options ("ro", "rprivate"). */
  public record Mount(String source, String destination, List<String> options) {}

  private final List<String> args = new ArrayList<>();
  private final List<String> env = new ArrayList<>();
  private final List<Mount> mounts = new ArrayList<>();
  private String cwd = "/";
  private int hostUid;
  private int hostGid;
  private boolean remapRoot;
  private boolean readonly = true;
  /** Replaced by container-run.sh with the unpacked image's directory. */
  public static final String ROOTFS_PLACEHOLDER = "@CORRAL_ROOTFS@";
  private String rootPath = ROOTFS_PLACEHOLDER;

  /**
   * @param remapRoot the user is root inside (mapped to them on the host). runc insists that the
   *     container's root be mapped, and a user without newuidmap may map only their own id, so on
   *     runc this is always true; crun runs the user as themselves.
   */
  public OciSpec user(int uid, int gid, boolean remapRoot) {
    this.hostUid = uid;
    this.hostGid = gid;
    this.remapRoot = remapRoot;
    return this;
  }

  public OciSpec args(List<String> command) {
    args.addAll(command);
    return this;
  }

  public OciSpec env(List<String> entries) {
    env.addAll(entries);
    return this;
  }

  public OciSpec cwd(String dir) {
    this.cwd = dir;
    return this;
  }

  public OciSpec readonly(boolean readonly) {
    this.readonly = readonly;
    return this;
  }

  public OciSpec root(String path) {
    this.rootPath = path;
    return this;
  }

  public OciSpec mount(Mount m) {
    mounts.add(m);
    return this;
  }

  public String toJson() {
    int uid = remapRoot ? 0 : hostUid;
    int gid = remapRoot ? 0 : hostGid;
    JsonObject c = new JsonObject().put("ociVersion", "1.0.2");
    JsonObject process = c.putObject("process").put("terminal", false);
    process.putObject("user").put("uid", uid).put("gid", gid);
    process.set("args", args).set("env", env).put("cwd", cwd).put("noNewPrivileges", true);
    JsonArray rlimits = process.putArray("rlimits");
    rlimits.addObject().put("type", "RLIMIT_NOFILE").put("hard", 1024).put("soft", 1024);
    c.putObject("root").put("path", rootPath).put("readonly", readonly);
    JsonArray m = c.putArray("mounts");
    m.addObject().put("destination", "/proc").put("type", "proc").put("source", "proc");
    m.addObject().put("destination", "/dev").put("type", "tmpfs").put("source", "tmpfs")
        .set("options", List.of("nosuid", "strictatime", "mode=755", "size=65536k"));
    m.addObject().put("destination", "/dev/pts").put("type", "devpts").put("source", "devpts")
        .set("options", List.of("nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"));
    m.addObject().put("destination", "/dev/shm").put("type", "tmpfs").put("source", "shm")
        .set("options", List.of("nosuid", "noexec", "nodev", "mode=1777", "size=65536k"));
    m.addObject().put("destination", "/dev/mqueue").put("type", "mqueue").put("source", "mqueue")
        .set("options", List.of("nosuid", "noexec", "nodev"));
    m.addObject().put("destination", "/sys").put("type", "none").put("source", "/sys")
        .set("options", List.of("rbind", "nosuid", "noexec", "nodev", "ro"));
    m.addObject().put("destination", "/tmp").put("type", "tmpfs").put("source", "tmpfs")
        .set("options", List.of("nosuid", "nodev", "mode=1777"));
    for (String etc : List.of("/etc/resolv.conf", "/etc/hosts", "/etc/passwd", "/etc/group")) {
      m.addObject().put("destination", etc).put("type", "none").put("source", etc)
          .set("options", List.of("bind", "ro", "nosuid", "nodev"));
    }
    for (Mount b : mounts) {
      List<String> options = new ArrayList<>();
      if (b.source().equals("tmpfs")) {
        options.addAll(List.of("nosuid", "nodev"));
        options.addAll(b.options());
        m.addObject().put("destination", b.destination()).put("type", "tmpfs").put("source", "tmpfs")
            .set("options", options);
      } else {
        options.addAll(List.of("rbind", "nosuid"));
        options.addAll(b.options());
        m.addObject().put("destination", b.destination()).put("type", "none").put("source", b.source())
            .set("options", options);
      }
    }
    JsonObject linux = c.putObject("linux");
    linux.putArray("uidMappings").addObject().put("containerID", uid).put("hostID", hostUid).put("size", 1);
    linux.putArray("gidMappings").addObject().put("containerID", gid).put("hostID", hostGid).put("size", 1);
    JsonArray ns = linux.putArray("namespaces");
    for (String type : List.of("pid", "ipc", "user", "mount")) {
      ns.addObject().put("type", type);
    }
    linux.set("maskedPaths", List.of("/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats",
        "/proc/timer_list", "/proc/sched_debug", "/sys/firmware", "/proc/scsi"));
    linux.set("readonlyPaths", List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"));
    return JsonWriter.compact(c);
  }
}
