package org.corral.slurmd.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A launcher process (job-launcher.pl) that starts users' processes for slurmd: batch jobs, or
 * step tasks. slurmd writes "UID DIR" lines to its stdin; the launcher forks each job, reaps it
 * and writes "ended DIR" to its stdout once the status is on disk. The JVM thus never forks per
 * job (no jspawnhelper, no pipes, no reaper thread). When slurmd goes (end of its stdin) the
 * launcher takes no more requests and stays until its last job is recorded, to be re-adopted.
 */
public final class NodeLauncher implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(NodeLauncher.class.getName());
  static final String SCRIPT = "job-launcher.pl";
  private static final String ENDED = "ended ";
  private static final String FIFOS = "fifos ";
  private static final String NO_FIFOS = "nofifos ";
  private static final long FIFO_SECONDS = 10;
  private static final String READY = "ready";
  private static final long START_SECONDS = 30;

  private final Path script;
  private final String nodeName;
  /** What to run when the supervisor of the launch in a directory reports its end. */
  private final Map<Path, Runnable> endWatchers = new ConcurrentHashMap<>();
  private final Map<Path, CompletableFuture<Void>> fifoRequests = new ConcurrentHashMap<>();
  private Process process;
  private OutputStream requests;
  private boolean closed;

  /** Installs the script into {@code spoolDir} and starts the launcher, so that a node that cannot launch says so at once. */
  public static NodeLauncher start(Path spoolDir, String nodeName) throws IOException {
    NodeLauncher launcher = new NodeLauncher(spoolDir, nodeName);
    synchronized (launcher) {
      launcher.ensureRunning();
    }
    return launcher;
  }

  private NodeLauncher(Path spoolDir, String nodeName) throws IOException {
    SpoolScripts.install(spoolDir, SCRIPT, NodeLauncher.class);
    this.script = spoolDir.resolve(SCRIPT);
    this.nodeName = nodeName;
  }

  /**
   * Asks the launcher to start what {@code dir}/launch describes, as {@code uid}; {@code ended}
   * runs once its status is recorded (on the launcher's reader thread: it must be quick).
   */
  public void launch(Path dir, int uid, Runnable ended) throws IOException {
    endWatchers.put(dir, ended);
    try {
      send(Integer.toUnsignedString(uid) + " " + dir + "\n");
    } catch (IOException e) {
      endWatchers.remove(dir);
      throw e;
    }
  }

  /** Makes the named pipes {@code dir}/in, out and err (root's, 0600), a step task's streams. */
  public void makeFifos(Path dir) throws IOException {
    CompletableFuture<Void> made = new CompletableFuture<>();
    fifoRequests.put(dir, made);
    try {
      send(FIFOS + dir + "\n");
      made.get(FIFO_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the node's launcher made no named pipes in " + dir + " within " + FIFO_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while named pipes were made in " + dir, e);
    } finally {
      fifoRequests.remove(dir, made);
    }
  }

  private synchronized void send(String line) throws IOException {
    if (closed) {
      throw new IOException("the node's launcher is closed");
    }
    byte[] request = line.getBytes(StandardCharsets.UTF_8);
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
    // One reader per launcher: one replaced after its pipe broke may still report its jobs' ends.
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
          Runnable watcher = endWatchers.remove(Path.of(line.substring(ENDED.length())));
          try {
            if (watcher != null) {
              watcher.run();
            }
          } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "handling the end of " + line.substring(ENDED.length()) + " failed", e);
          }
        } else if (line.startsWith(FIFOS)) {
          CompletableFuture<Void> made = fifoRequests.get(Path.of(line.substring(FIFOS.length())));
          if (made != null) {
            made.complete(null);
          }
        } else if (line.startsWith(NO_FIFOS)) {
          String rest = line.substring(NO_FIFOS.length());
          fifoRequests.forEach((dir, made) -> {
            if (rest.startsWith(dir + " ")) {
              made.completeExceptionally(new IOException(rest.substring(dir.toString().length() + 1)));
            }
          });
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
