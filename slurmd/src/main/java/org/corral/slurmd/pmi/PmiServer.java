package org.corral.slurmd.pmi;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A step's PMI server on this node (--mpi=pmi2), what Slurm's step daemon runs: a Unix socket
 * in the step's root-only spool directory, which the node's launcher connects to as root for
 * each task before it drops privileges, says the task's id on ("TASKID\n") and hands to the task
 * as PMI_FD. Users cannot connect themselves (the socket is root's, mode 0600), so the id is
 * trusted; each id is served once.
 */
public final class PmiServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmd");
  /** The launcher's hello: a task id, a newline. */
  private static final int MAX_HELLO = 16;

  private final Path socket;
  private final PmiJob job;
  private final PmiSpace space;
  private final PmiConnection.Events events;
  private final Set<Integer> tasks;
  private final Set<Integer> served = ConcurrentHashMap.newKeySet();
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final ServerSocketChannel server;
  private volatile boolean closed;

  /**
   * Listens on {@code socket} (its directory must be root's alone) for the tasks here.
   *
   * @param tasks the global ids of the step's tasks on this node
   */
  public PmiServer(Path socket, PmiJob job, PmiSpace space, List<Integer> tasks, PmiConnection.Events events)
      throws IOException {
    this.socket = socket;
    this.job = job;
    this.space = space;
    this.events = events;
    this.tasks = Set.copyOf(tasks);
    Files.deleteIfExists(socket);
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      server.bind(UnixDomainSocketAddress.of(socket));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException | RuntimeException e) {
      server.close();
      throw new IOException("cannot listen on " + socket + " for the step's PMI: " + e.getMessage(), e);
    }
    Thread.ofVirtual().name("pmi-accept-" + job.kvsName()).start(this::accept);
  }

  public Path socket() {
    return socket;
  }

  private void accept() {
    while (!closed) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      open.add(channel);
      Thread.ofVirtual().name("pmi-" + job.kvsName()).start(() -> serve(channel));
    }
  }

  private void serve(SocketChannel channel) {
    int task = -1;
    try (channel) {
      InputStream in = new BufferedInputStream(Channels.newInputStream(channel));
      task = hello(in);
      if (task < 0 || !tasks.contains(task) || !served.add(task)) {
        LOG.log(Level.WARNING, "step " + job.kvsName() + ": PMI connection for no task of this node refused");
        return;
      }
      new PmiConnection(task, job, space, events, in, new BufferedOutputStream(Channels.newOutputStream(channel)))
          .serve();
    } catch (IOException e) {
      if (!closed) {
        LOG.log(Level.DEBUG, "step " + job.kvsName() + " task " + task + ": PMI stream ended: " + e.getMessage());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      open.remove(channel);
    }
  }

  /** The task id the launcher said, or -1. */
  private static int hello(InputStream in) throws IOException {
    StringBuilder digits = new StringBuilder();
    int c;
    while ((c = in.read()) != -1 && c != '\n' && digits.length() < MAX_HELLO) {
      digits.append((char) c);
    }
    try {
      return c == '\n' ? Integer.parseInt(digits.toString()) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Stops listening, ends every waiting fence and closes the tasks' streams. */
  @Override
  public void close() {
    closed = true;
    space.close();
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (SocketChannel c : open) {
      try {
        c.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      // the step's directory goes with the step
    }
  }
}
