package org.corral.slurmd.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The node's launcher process (job-launcher.pl): slurmd's one child for all batch jobs. slurmd
 * writes "UID JOBDIR" lines to its stdin; each job's supervisor, forked from it, writes "ended
 * JOBDIR" to its stdout once the job's status is on disk. The JVM thus never forks per job (no
 * jspawnhelper, no pipes, no reaper thread), and the launcher ends by itself when slurmd goes
 * (end of its stdin) while the jobs and their supervisors stay, to be re-adopted.
 */
final class NodeLauncher implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(NodeLauncher.class.getName());
  static final String SCRIPT = "job-launcher.pl";
  private static final String ENDED = "ended ";
  private static final String READY = "ready";
  private static final long START_SECONDS = 30;

  private final Path script;
  private final String nodeName;
  private final Consumer<Path> ended;
  private Process process;
  private OutputStream requests;
  private boolean closed;

  /**
   * @param spoolDir where the launcher script is installed
   * @param ended told the directory of each job whose status has been written
   */
  NodeLauncher(Path spoolDir, String nodeName, Consumer<Path> ended) throws IOException {
    SpoolScripts.install(spoolDir, SCRIPT, NodeLauncher.class);
    this.script = spoolDir.resolve(SCRIPT);
    this.nodeName = nodeName;
    this.ended = ended;
  }

  /** Starts the launcher now, so that a node that cannot launch jobs says so at once. */
  synchronized void start() throws IOException {
    ensureRunning();
  }

  /** Asks the launcher to start the job whose files are in {@code dir}, as {@code uid}. */
  synchronized void launch(Path dir, int uid) throws IOException {
    if (closed) {
      throw new IOException("the node's launcher is closed");
    }
    byte[] request = (Integer.toUnsignedString(uid) + " " + dir + "\n").getBytes(StandardCharsets.UTF_8);
    for (int attempt = 0; ; attempt++) {
      try {
        ensureRunning().write(request);
        requests.flush();
        return;
      } catch (IOException e) {
        // The launcher died (its pipe broke): a new one takes the request, once.
        stop();
        if (attempt > 0) {
          throw e;
        }
      }
    }
  }

  private OutputStream ensureRunning() throws IOException {
    if (process != null && process.isAlive()) {
      return requests;
    }
    ProcessBuilder builder = CleanProcess.builder(List.of("perl", script.toString()));
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process started;
    try {
      started = builder.start();
    } catch (IOException e) {
      throw new IOException("cannot start the node's job launcher (perl " + script + "): " + e.getMessage()
          + "; jobs are launched through perl (Debian's perl-base)", e);
    }
    CompletableFuture<Void> ready = new CompletableFuture<>();
    // One reader per launcher: the supervisors it forked report through its pipe even after it died.
    Thread.ofPlatform().name("launcher-" + nodeName + "-" + started.pid()).daemon().stackSize(256 * 1024)
        .start(() -> readEnds(started, ready));
    try {
      ready.get(START_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      started.destroyForcibly();
      throw new IOException("the node's job launcher (perl " + script + ") did not start; perl's messages are in slurmd's log");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      started.destroyForcibly();
      throw new IOException("interrupted while the node's job launcher started", e);
    }
    process = started;
    requests = started.getOutputStream();
    LOG.log(Level.DEBUG, "job launcher started, pid " + started.pid());
    return requests;
  }

  private void readEnds(Process launcher, CompletableFuture<Void> ready) {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.equals(READY)) {
          ready.complete(null);
        } else if (line.startsWith(ENDED)) {
          try {
            ended.accept(Path.of(line.substring(ENDED.length())));
          } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "handling the end of " + line.substring(ENDED.length()) + " failed", e);
          }
        }
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "job launcher " + launcher.pid() + ": " + e.getMessage());
    } finally {
      ready.completeExceptionally(new IOException("the launcher ended"));
    }
  }

  private void stop() {
    if (process != null) {
      try {
        requests.close(); // end of input: the launcher exits; its supervisors stay
      } catch (IOException e) {
        // already gone
      }
      process = null;
      requests = null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    stop();
  }
}
