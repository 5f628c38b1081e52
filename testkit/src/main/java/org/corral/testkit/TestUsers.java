package org.corral.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Real, unprivileged Unix users for tests that check who may do what. Created with useradd on
 * first use (tests run as root here and in CI); tests that need them assume {@link #canCreate()}.
 */
public final class TestUsers {
  /** A test user and its ids. */
  public record User(String name, int uid, int gid) {}

  public static final String ALICE = "corral-alice";
  public static final String BOB = "corral-bob";

  private TestUsers() {}

  public static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Whether users can be created here (root with useradd). */
  public static boolean canCreate() {
    return isRoot() && (new java.io.File("/usr/sbin/useradd").canExecute());
  }

  /** Returns the user, creating it (with a home and its own group) if it does not exist. */
  public static synchronized User ensure(String name) {
    try {
      if (run(List.of("id", "-u", name)) == null) {
        String out = run(List.of("/usr/sbin/useradd", "-m", "-U", "-s", "/bin/sh", name));
        if (out == null && run(List.of("id", "-u", name)) == null) {
          throw new IllegalStateException("useradd " + name + " failed");
        }
      }
      int uid = Integer.parseInt(run(List.of("id", "-u", name)).trim());
      int gid = Integer.parseInt(run(List.of("id", "-g", name)).trim());
      return new User(name, uid, gid);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create test user " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Runs a command; its stdout on success, null on a non-zero exit. */
  private static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return p.waitFor() == 0 ? out : null;
  }
}
