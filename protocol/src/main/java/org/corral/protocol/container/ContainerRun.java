package org.corral.protocol.container;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * One task's run in an OCI container: the command the user's process becomes (container-run.sh,
 * run by "sh -c" as the user, which unpacks the image when needed, writes the bundle's config.json
 * and calls the runtime), and the directories slurmd prepares for it as root. Shared by
 * --container (oci.conf) and the Pyxis options.
 *
 * @param bundle the task's bundle directory (the user's, empty)
 * @param configJson the bundle's config.json
 * @param kind how the image is stored: none, squashfs, docker-archive, oci-archive, dir
 * @param image the image's path ("" for none)
 * @param cache the user's image cache on this node
 * @param rootfs "" (config.json names the root), "shared", or "copy:DIR"
 * @param runtime the runtime's commands, patterns already replaced
 * @param envFile where CreateEnvFile writes the environment ("" for none)
 * @param envText what it writes there
 * @param errorPrefix what starts each error line
 */
public record ContainerRun(Path bundle, String configJson, String kind, String image, Path cache, String rootfs,
    Runtime runtime, String envFile, String envText, String errorPrefix) {

  /** The runtime's commands for one task (shell text); run, or create and start polled with query. */
  public record Runtime(String run, String create, String start, String query, String kill, String delete) {

    /** oci.conf's commands with the task's values put in. */
    public static Runtime of(OciConf c, Map<Character, String> values, List<String> command) {
      return new Runtime(x(c.run(), values, command), x(c.create(), values, command), x(c.start(), values, command),
          x(c.query(), values, command), x(c.kill(), values, command), x(c.delete(), values, command));
    }

    private static String x(String pattern, Map<Character, String> values, List<String> command) {
      return pattern.isEmpty() ? "" : OciPattern.expand(pattern, values, command);
    }
  }

  private static final String SCRIPT = loadScript();

  private static String loadScript() {
    try (InputStream in = ContainerRun.class.getResourceAsStream("container-run.sh")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the task runs in place of its command. */
  public List<String> command() {
    return List.of("/bin/sh", "-c", SCRIPT, "corral-container", bundle.toString(), configJson, kind, image,
        cache.toString(), rootfs, runtime.run(), runtime.create(), runtime.start(), runtime.query(), runtime.kill(),
        runtime.delete(), envFile, envText, errorPrefix);
  }

  /**
   * As root: DIR (0711, root's) and in it the user's own directory NAME (0700), made or taken
   * back; returns the latter.
   */
  public static Path userDirectory(Path dir, String name, int uid, int gid) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    Path own = dir.resolve(name);
    if (!Files.isDirectory(own, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.deleteIfExists(own);
      Files.createDirectory(own);
    }
    Files.setAttribute(own, "unix:uid", uid, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(own, "unix:gid", gid, java.nio.file.LinkOption.NOFOLLOW_LINKS);
    Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
    return own;
  }
}
