package org.corral.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A connection-exhaustion attack run as a given user in a process of its own (conn_flood.py,
 * the script bench/ uses for the longer attack): many connections held idle, or each sending a
 * frame one byte a second. Close it to end the attack and learn how many the server left open.
 */
public final class ConnectionFlood implements AutoCloseable {
  /** How many connections the attack opened, and how many the server left open at its end. */
  public record Outcome(int opened, int failed, int stillOpen) {}

  private static final Pattern OPENED = Pattern.compile("opened=(\\d+) failed=(\\d+)");
  private static final Pattern END = Pattern.compile("open=(\\d+) closed=(\\d+)");

  private final Process process;
  private final BufferedReader out;
  private final Path script;
  private final int opened;
  private final int failed;

  private ConnectionFlood(Process process, Path script) throws IOException {
    this.process = process;
    this.script = script;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8));
    String line = out.readLine();
    Matcher m = line == null ? null : OPENED.matcher(line);
    if (m == null || !m.find()) {
      process.destroyForcibly();
      throw new IOException("the flood did not start: " + line);
    }
    this.opened = Integer.parseInt(m.group(1));
    this.failed = Integer.parseInt(m.group(2));
  }

  /**
   * Starts the attack and returns once every connection was tried.
   *
   * @param user who attacks (null: the test's own user)
   * @param target {@code unix:PATH} or {@code tcp:HOST:PORT}
   * @param loris true: each connection sends a frame a byte a second; false: idle (big: each
   *     announces a 60 MiB frame and sends as fast as the server reads)
   * @param holdSeconds how long the attack lasts at most
   */
  public static ConnectionFlood start(TestUsers.User user, String target, int count, boolean loris,
      int holdSeconds) throws IOException {
    return start(user, target, count, loris ? "loris" : "idle", holdSeconds);
  }

  /** As {@link #start(TestUsers.User, String, int, boolean, int)}; mode idle, loris or big. */
  public static ConnectionFlood start(TestUsers.User user, String target, int count, String mode,
      int holdSeconds) throws IOException {
    Path script = Files.createTempFile(Path.of("/tmp"), "corral-flood-", ".py");
    try (InputStream in = ConnectionFlood.class.getResourceAsStream("conn_flood.py")) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> cmd = new java.util.ArrayList<>();
    if (user != null) {
      cmd.addAll(List.of("setpriv", "--reuid=" + user.uid(), "--regid=" + user.gid(),
          "--clear-groups"));
    }
    // the system's python: a user's own (pyenv under /root) is out of the attacker's reach
    cmd.addAll(List.of("/usr/bin/python3", script.toString(), target, String.valueOf(count),
        String.valueOf(holdSeconds), mode));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      return new ConnectionFlood(p, script);
    } catch (IOException e) {
      Files.deleteIfExists(script);
      throw e;
    }
  }

  public int opened() {
    return opened;
  }

  /** Ends the attack: how many connections the server had left open. */
  public Outcome finish() throws IOException, InterruptedException {
    process.getOutputStream().close();
    String line = out.readLine();
    process.waitFor(30, TimeUnit.SECONDS);
    Matcher m = line == null ? null : END.matcher(line);
    if (m == null || !m.find()) {
      throw new IOException("the flood ended without its count: " + line);
    }
    return new Outcome(opened, failed, Integer.parseInt(m.group(1)));
  }

  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    Files.deleteIfExists(script);
  }
}
