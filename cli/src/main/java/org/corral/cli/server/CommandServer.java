package org.corral.cli.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The resident command server of one user on one host, for one Corral installation
 * (docs/adr/0007-resident-command-server.md): runs as that user, listens on a Unix socket in a
 * directory only that user can reach, runs each front end's call on a virtual thread
 * ({@link ServerCall}), and exits after {@code --idle-seconds} without a call, when told to
 * stop, or when a front end of another build calls (its jars changed under it).
 *
 * <p>{@code CommandServer --socket PATH --build ID [--idle-seconds N]}. The lock file beside the
 * socket (PATH.lock) is held for the server's life: a second server for the same socket exits
 * at once, and a socket left by a crashed one is replaced.
 */
public final class CommandServer {
  /** Calls at once; a front end turned away runs its command itself. */
  static final int MAX_CALLS = 256;

  private final Path socket;
  private final String buildId;
  private final long idleNanos;
  private final AtomicInteger active = new AtomicInteger();
  private volatile long lastCall = System.nanoTime();
  private volatile boolean retiring;
  private ServerSocketChannel listener;
  private Object socketKey;
  private FileLock lock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "command-server-timer");
    t.setDaemon(true);
    return t;
  });

  CommandServer(Path socket, String buildId, long idleSeconds) {
    this.socket = socket;
    this.buildId = buildId;
    this.idleNanos = TimeUnit.SECONDS.toNanos(idleSeconds);
  }

  public static void main(String[] argv) throws IOException {
    Path socket = null;
    String build = null;
    long idle = 600;
    for (int i = 0; i + 1 < argv.length; i += 2) {
      switch (argv[i]) {
        case "--socket" -> socket = Path.of(argv[i + 1]);
        case "--build" -> build = argv[i + 1];
        case "--idle-seconds" -> idle = Long.parseLong(argv[i + 1]);
        default -> usage();
      }
    }
    if (socket == null || build == null || !socket.isAbsolute()) {
      usage();
    }
    String problem = privateDirectoryProblem(socket.getParent());
    if (problem != null) {
      System.err.println("corral command server: " + problem);
      Runtime.getRuntime().halt(2);
    }
    new CommandServer(socket, build, idle).serve();
  }

  private static void usage() {
    System.err.println("usage: CommandServer --socket PATH --build ID [--idle-seconds N]");
    Runtime.getRuntime().halt(2);
  }

  /**
   * Why the directory is no place for this user's socket (null when it is one): it must be a
   * real directory, this user's, closed to everyone else. The front end checks the same.
   */
  static String privateDirectoryProblem(Path dir) {
    try {
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) {
        return dir + " is not a directory";
      }
      if (!a.owner().getName().equals(System.getProperty("user.name"))) {
        return dir + " belongs to " + a.owner().getName() + ", not to " + System.getProperty("user.name");
      }
      Set<PosixFilePermission> open = a.permissions();
      open.retainAll(PosixFilePermissions.fromString("---rwxrwx"));
      if (!open.isEmpty()) {
        return dir + " is open to others (mode " + PosixFilePermissions.toString(a.permissions()) + ")";
      }
      return null;
    } catch (IOException e) {
      return dir + ": " + e.getMessage();
    }
  }

  void serve() throws IOException {
    Path lockFile = Path.of(socket + ".lock");
    FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    lock = lockChannel.tryLock();
    if (lock == null) {
      Runtime.getRuntime().halt(0); // another server has this socket
    }
    Files.deleteIfExists(socket); // left by a server that died
    listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    listener.bind(UnixDomainSocketAddress.of(socket), 64);
    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
    socketKey = Files.readAttributes(socket, "unix:ino").get("ino");
    // Its pid, for benchmarks (the server's CPU per call) and tests (a crashed server)
    Files.writeString(Path.of(socket + ".pid"), ProcessHandle.current().pid() + "\n");
    Files.deleteIfExists(Path.of(socket + ".starting"));
    timer.scheduleWithFixedDelay(this::idleCheck, 5, 5, TimeUnit.SECONDS);
    String me = System.getProperty("user.name");
    while (true) {
      SocketChannel c;
      try {
        c = listener.accept();
      } catch (IOException e) {
        if (retiring) {
          awaitCallsThenExit();
        }
        continue;
      }
      if (!sameUser(c, me)) {
        c.close();
        continue;
      }
      Thread.ofVirtual().name("command-call").start(new ServerCall(this, c));
    }
  }

  /** The kernel's word on who connected: only this server's own user is served. */
  private static boolean sameUser(SocketChannel c, String me) {
    try {
      UnixDomainPrincipal p = c.getOption(ExtendedSocketOptions.SO_PEERCRED);
      return p.user().getName().equals(me);
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  String buildId() {
    return buildId;
  }

  ScheduledExecutorService timer() {
    return timer;
  }

  /** A call starts; false when too many run already. */
  boolean begin() {
    if (active.incrementAndGet() > MAX_CALLS) {
      active.decrementAndGet();
      return false;
    }
    lastCall = System.nanoTime();
    return true;
  }

  void end() {
    lastCall = System.nanoTime();
    active.decrementAndGet();
  }

  /**
   * Stops taking calls (its socket removed at once, so that a new server can start) and exits
   * once the running ones end.
   */
  synchronized void retire() {
    if (retiring) {
      return;
    }
    retiring = true;
    removeSocket();
    try {
      lock.release(); // a new server may start while this one finishes its calls
    } catch (IOException e) {
      // released with the process anyway
    }
    try {
      listener.close(); // the accept loop then waits for the running calls and exits
    } catch (IOException e) {
      Runtime.getRuntime().halt(0);
    }
  }

  private void awaitCallsThenExit() {
    while (active.get() > 0) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        break;
      }
    }
    Runtime.getRuntime().halt(0);
  }

  private void idleCheck() {
    long idle = System.nanoTime() - lastCall;
    if (active.get() == 0 && idle > idleNanos) {
      retire();
    } else if (active.get() == 0 && idle > TimeUnit.SECONDS.toNanos(30) && idle <= TimeUnit.SECONDS.toNanos(35)) {
      System.gc(); // a quiet server gives its heap back (the serial collector shrinks it)
    }
  }

  /** Removes the socket if it is still this server's (not one a newer server bound since). */
  private void removeSocket() {
    try {
      Object key = Files.readAttributes(socket, "unix:ino").get("ino");
      if (key.equals(socketKey)) {
        Files.deleteIfExists(socket);
        Files.deleteIfExists(Path.of(socket + ".pid"));
      }
    } catch (IOException e) {
      // gone already
    }
  }
}
