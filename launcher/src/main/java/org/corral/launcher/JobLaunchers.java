package org.corral.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The job launchers (slurmd's {@code perl SPOOL/job-launcher.pl}, the supervisor of a node's
 * batch jobs and step tasks) that a local cluster's node daemons left: a launcher outlives its
 * slurmd while it has jobs (so that a restarted slurmd re-adopts them), and a slurmd killed with
 * SIGKILL leaves it with them. {@code corral down} stops them and their jobs. A launcher is
 * known by its exact command line, which names the node's own spool directory, so nothing of
 * another cluster is ever touched.
 */
final class JobLaunchers {
  private static final String SCRIPT = "job-launcher.pl";
  private static final long GRACE_MILLIS = 5000;

  private JobLaunchers() {}

  /** Stops the launchers of these spool directories and everything they started; returns how many. */
  static int stop(List<Path> spoolDirs) throws InterruptedException {
    List<ProcessHandle> launchers = ProcessHandle.allProcesses()
        .filter(p -> spoolDirs.stream().anyMatch(spool -> isLauncherOf(p, spool))).toList();
    for (ProcessHandle launcher : launchers) {
      // The jobs first (each leads its process group; their children are its descendants): the
      // launcher records their ends, then exits, its slurmd being gone.
      launcher.descendants().forEach(ProcessHandle::destroyForcibly);
    }
    long deadline = System.nanoTime() + GRACE_MILLIS * 1_000_000;
    for (ProcessHandle launcher : launchers) {
      while (launcher.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      launcher.destroyForcibly();
    }
    return launchers.size();
  }

  private static boolean isLauncherOf(ProcessHandle p, Path spool) {
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
      String expected = "perl\0" + spool.resolve(SCRIPT) + "\0";
      return new String(cmdline, StandardCharsets.UTF_8).equals(expected);
    } catch (IOException | SecurityException gone) {
      return false;
    }
  }
}
