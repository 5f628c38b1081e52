package org.corral.slurmd.hooks;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a site program as root (Prolog, Epilog, health check) with exactly the environment given
 * (never the daemon's), from /, its output discarded as Slurm discards it. The configured path
 * may be a glob ({@code /etc/slurm/prolog.d/*}): every match runs, in name order, until one fails.
 */
final class HookProgram {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private final String pathOrGlob;
  private final String what;

  /** @param what how the log names it: "prolog", "epilog", "health check" */
  HookProgram(String pathOrGlob, String what) {
    this.pathOrGlob = pathOrGlob;
    this.what = what;
  }

  /**
   * Runs every program the path names; the first non-zero exit status (or -1 when one could not
   * run or ran past {@code timeoutSeconds}, 0 = no limit), else 0.
   */
  int run(Map<String, String> env, int timeoutSeconds) {
    List<Path> programs = programs();
    if (programs.isEmpty()) {
      LOG.log(Level.ERROR, what + ": no program matches " + pathOrGlob);
      return -1;
    }
    for (Path program : programs) {
      int rc = runOne(program, env, timeoutSeconds);
      if (rc != 0) {
        LOG.log(Level.ERROR, what + " " + program + " failed: " + (rc < 0 ? "did not finish" : "rc:" + rc));
        return rc;
      }
    }
    return 0;
  }

  private int runOne(Path program, Map<String, String> env, int timeoutSeconds) {
    ProcessBuilder pb = new ProcessBuilder(program.toString());
    pb.environment().clear();
    pb.environment().putAll(env);
    pb.directory(new java.io.File("/"));
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    try {
      Process p = pb.start();
      boolean done = timeoutSeconds > 0 ? p.waitFor(timeoutSeconds, TimeUnit.SECONDS) : p.waitFor() >= 0;
      if (!done) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      LOG.log(Level.ERROR, what + ": cannot run " + program + ": " + e.getMessage());
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private List<Path> programs() {
    Path path = Path.of(pathOrGlob);
    String name = path.getFileName() == null ? "" : path.getFileName().toString();
    if (!name.matches(".*[*?\\[].*") || path.getParent() == null) {
      return List.of(path);
    }
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> matches = Files.newDirectoryStream(path.getParent(), name)) {
      matches.forEach(out::add);
    } catch (IOException e) {
      return List.of();
    }
    out.sort(null);
    return out;
  }
}
