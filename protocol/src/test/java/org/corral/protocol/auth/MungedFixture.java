package org.corral.protocol.auth;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * A private munged (the munge package's daemon) on a socket of its own, with a fresh key: tests
 * never touch the host's munged. Skips the test where the package is missing (.ci/run installs
 * it).
 */
public final class MungedFixture implements AutoCloseable {
  private final Process process;
  private final Path socket;

  public MungedFixture(Path dir) throws IOException, InterruptedException {
    assumeTrue(Files.isExecutable(Path.of("/usr/sbin/munged")),
        "munged is not installed (apt-get install munge; .ci/run does)");
    Path key = dir.resolve("munge.key");
    byte[] bytes = new byte[1024];
    new SecureRandom().nextBytes(bytes);
    Files.write(key, bytes);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("r--------"));
    Path run = Files.createDirectories(dir.resolve("run"));
    Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"));
    socket = run.resolve("munge.socket");
    process = new ProcessBuilder("/usr/sbin/munged", "-F", "--force", "--socket=" + socket,
        "--key-file=" + key, "--log-file=" + dir.resolve("munged.log"),
        "--pid-file=" + run.resolve("munged.pid"), "--seed-file=" + dir.resolve("seed"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("munged.out").toFile()).start();
    for (int i = 0; i < 200 && !Files.exists(socket); i++) {
      if (!process.isAlive()) {
        throw new IOException("munged exited: " + Files.readString(dir.resolve("munged.out")));
      }
      Thread.sleep(25);
    }
    if (!Files.exists(socket)) {
      close();
      throw new IOException("munged made no socket at " + socket);
    }
  }

  public Path socket() {
    return socket;
  }

  public MungeProgram program() {
    return new MungeProgram(socket);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
