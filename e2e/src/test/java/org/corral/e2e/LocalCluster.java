package org.corral.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.corral.testkit.FreePorts;
import org.corral.testkit.TestUsers;

/**
 * A real local cluster started with {@code corral up} in a temporary directory, on free ports,
 * and commands run against it as real users. Corral's built files are copied to a directory
 * every user can read, so unprivileged users can run the commands wherever the checkout is.
 */
final class LocalCluster implements AutoCloseable {
  /** What a command printed and returned. */
  record Result(int exitCode, String out, String err) {}

  final Path root;
  final Path home;
  final Path dir;
  final int portBase;

  private LocalCluster(Path root, Path home, Path dir, int portBase) {
    this.root = root;
    this.home = home;
    this.dir = dir;
    this.portBase = portBase;
  }

  static LocalCluster up(int nodes, int cpus, long memMb) throws IOException, InterruptedException {
    return start(nodes, null, "--nodes", String.valueOf(nodes), "--cpus", String.valueOf(cpus),
        "--memory", String.valueOf(memMb));
  }

  /** A cluster from a slurm.conf text (`corral up --config`), which may set what it likes. */
  static LocalCluster upWithConfig(int nodes, String slurmConf) throws IOException, InterruptedException {
    return start(nodes, slurmConf);
  }

  /** As {@link #upWithConfig(int, String)}, with a cgroup.conf beside the slurm.conf. */
  static LocalCluster upWithConfig(int nodes, String slurmConf, String cgroupConf)
      throws IOException, InterruptedException {
    return startFrom(nodes, slurmConf, cgroupConf);
  }

  /** As {@link #upWithConfig(int, String, String)}, with a gres.conf beside the slurm.conf too. */
  static LocalCluster upWithConfig(int nodes, String slurmConf, String cgroupConf, String gresConf)
      throws IOException, InterruptedException {
    return startWith(nodes, slurmConf, cgroupConf, gresConf);
  }

  /** A cluster from a slurm.conf text and files beside it (job_submit.lua, oci.conf, plugstack.conf), by name. */
  static LocalCluster upWithFiles(int nodes, String slurmConf, java.util.Map<String, String> files)
      throws IOException, InterruptedException {
    Path root = Files.createTempDirectory(Path.of("/tmp"), "corral-e2e-");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (var f : files.entrySet()) {
      Files.writeString(root.resolve(f.getKey()), f.getValue());
    }
    return startIn(root, LocalCluster::copyCheckout, nodes, slurmConf, null, null);
  }

  private static LocalCluster start(int nodes, String slurmConf, String... options)
      throws IOException, InterruptedException {
    return startFrom(nodes, slurmConf, null, options);
  }

  private static LocalCluster startFrom(int nodes, String slurmConf, String cgroupConf, String... options)
      throws IOException, InterruptedException {
    return startWith(nodes, slurmConf, cgroupConf, null, options);
  }

  private static LocalCluster startWith(int nodes, String slurmConf, String cgroupConf, String gresConf,
      String... options) throws IOException, InterruptedException {
    return startWith(LocalCluster::copyCheckout, nodes, slurmConf, cgroupConf, gresConf, options);
  }

  /** A cluster run from the installable tarball (docs/deploy.md), unpacked as a site would. */
  static LocalCluster upFromTarball(Path tarball, int nodes, int cpus, long memMb)
      throws IOException, InterruptedException {
    return startWith(home -> unpack(tarball, home), nodes, null, null, null, "--nodes",
        String.valueOf(nodes), "--cpus", String.valueOf(cpus), "--memory", String.valueOf(memMb));
  }

  /** Puts Corral's files in a new directory {@code home}. */
  private interface Installer {
    void install(Path home) throws IOException, InterruptedException;
  }

  private static LocalCluster startWith(Installer installer, int nodes, String slurmConf,
      String cgroupConf, String gresConf, String... options) throws IOException, InterruptedException {
    Path root = Files.createTempDirectory(Path.of("/tmp"), "corral-e2e-");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    return startIn(root, installer, nodes, slurmConf, cgroupConf, gresConf, options);
  }

  private static void copyCheckout(Path home) throws IOException {
    copyInstallation(Path.of(System.getProperty("corral.home")), home);
  }

  private static LocalCluster startIn(Path root, Installer installer, int nodes, String slurmConf,
      String cgroupConf, String gresConf, String... options) throws IOException, InterruptedException {
    Path home = root.resolve("home");
    installer.install(home);
    int port = FreePorts.block(10 + nodes + 1);
    LocalCluster c = new LocalCluster(root, home, root.resolve("cluster"), port);
    List<String> args = new ArrayList<>(List.of("up", "--dir", c.dir.toString(), "--port-base",
        String.valueOf(port)));
    args.addAll(List.of(options));
    if (slurmConf != null) {
      Path conf = root.resolve("given.conf");
      Files.writeString(conf, slurmConf);
      if (cgroupConf != null) {
        Files.writeString(root.resolve("cgroup.conf"), cgroupConf);
      }
      if (gresConf != null) {
        Files.writeString(root.resolve("gres.conf"), gresConf);
      }
      args.addAll(List.of("--config", conf.toString()));
    }
    Result r = c.corral(args.toArray(String[]::new));
    if (r.exitCode() != 0) {
      c.close();
      throw new IllegalStateException("corral up failed: " + r);
    }
    return c;
  }

  private static void copyInstallation(Path from, Path to) throws IOException {
    for (String sub : List.of("bin", "libexec", "build/lib", "build/aot")) {
      Path src = from.resolve(sub);
      if (!Files.exists(src)) {
        continue; // build/aot: the class caches are an optimisation
      }
      try (var files = Files.walk(src)) {
        for (Path p : files.toList()) {
          Path dst = to.resolve(sub).resolve(src.relativize(p).toString());
          if (Files.isSymbolicLink(p)) {
            Files.createSymbolicLink(dst, Files.readSymbolicLink(p));
          } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dst);
          } else {
            Files.copy(p, dst, StandardCopyOption.COPY_ATTRIBUTES);
          }
        }
      }
    }
    Files.copy(from.resolve("corral"), to.resolve("corral"), StandardCopyOption.COPY_ATTRIBUTES);
    try (var files = Files.walk(to)) {
      for (Path p : files.toList()) {
        if (!Files.isSymbolicLink(p)) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
              Files.isDirectory(p) || Files.isExecutable(p) ? "rwxr-xr-x" : "rw-r--r--"));
        }
      }
    }
  }

  private static void unpack(Path tarball, Path home) throws IOException, InterruptedException {
    Files.createDirectories(home);
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> cmd = List.of("tar", "-xzf", tarball.toString(), "-C", home.toString(), "--strip-components=1");
    Result r = execute(new ProcessBuilder(cmd), null, 120, cmd);
    if (r.exitCode() != 0) {
      throw new IOException("unpacking " + tarball + " failed: " + r);
    }
  }

  Result corral(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(home.resolve("corral").toString()));
    cmd.addAll(List.of(args));
    return run(cmd, Map.of("CORRAL_SKIP_BUILD", "1"), null, 180);
  }

  /** A command from Corral's bin/, as the given user (null = root), in the given directory. */
  Result as(TestUsers.User user, Path cwd, String... args) throws IOException, InterruptedException {
    return as(user, cwd, Map.of(), args);
  }

  /** As {@link #as(TestUsers.User, Path, String...)}, with more environment variables. */
  Result as(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String... args)
      throws IOException, InterruptedException {
    return run(command(user, cwd, extraEnv, args), cwd, 60);
  }

  /**
   * As {@link #as(TestUsers.User, Path, Map, String...)}, started and left running: stdout and
   * stderr are pipes to read while it runs (signals, live output); stdin is /dev/null.
   */
  Process start(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String... args) throws IOException {
    ProcessBuilder pb = command(user, cwd, extraEnv, args);
    return pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
  }

  /** As {@link #as(TestUsers.User, Path, Map, String...)}, any program (args[0], a full path) with this cluster's set-up. */
  Result program(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String... args)
      throws IOException, InterruptedException {
    return run(command(user, cwd, extraEnv, args[0], List.of(args).subList(1, args.length)), cwd, 60);
  }

  private ProcessBuilder command(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String... args) {
    return command(user, cwd, extraEnv, home.resolve("bin").resolve(args[0]).toString(),
        List.of(args).subList(1, args.length));
  }

  private ProcessBuilder command(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String program,
      List<String> args) {
    List<String> cmd = new ArrayList<>();
    if (user != null) {
      cmd.addAll(List.of("setpriv", "--reuid=" + user.uid(), "--regid=" + user.gid(), "--init-groups"));
    }
    cmd.add(program);
    cmd.addAll(args);
    Map<String, String> env = new java.util.HashMap<>(extraEnv);
    env.put("SLURM_CONF", dir.resolve("slurm.conf").toString());
    // Commands that run others (salloc's shell, a batch script's srun) find Corral's first.
    env.put("PATH", home.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("HOME", user == null ? "/root" : "/home/" + user.name());
    env.put("USER", user == null ? "root" : user.name());
    env.put("PWD", cwd == null ? root.toString() : cwd.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    pb.directory((cwd == null ? root : cwd).toFile());
    return pb;
  }

  Result as(TestUsers.User user, String... args) throws IOException, InterruptedException {
    return as(user, null, args);
  }

  /** As {@link #as(TestUsers.User, Path, String...)}, with the given text on the command's stdin. */
  Result withInput(TestUsers.User user, Path cwd, String input, String... args)
      throws IOException, InterruptedException {
    return withInput(user, cwd, Map.of(), input, args);
  }

  /** As {@link #withInput(TestUsers.User, Path, String, String...)}, with more environment variables. */
  Result withInput(TestUsers.User user, Path cwd, Map<String, String> extraEnv, String input, String... args)
      throws IOException, InterruptedException {
    Path in = Files.createTempFile(root, "stdin", ".txt");
    try {
      Files.writeString(in, input);
      Files.setPosixFilePermissions(in, PosixFilePermissions.fromString("rw-r--r--"));
      stdin.set(in);
      return as(user, cwd, extraEnv, args);
    } finally {
      stdin.remove();
      Files.deleteIfExists(in);
    }
  }

  /** stdin for the next command run by this thread (null: /dev/null). */
  private final ThreadLocal<Path> stdin = new ThreadLocal<>();

  private Result run(List<String> cmd, Map<String, String> env, Path cwd, int timeoutS)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    pb.directory((cwd == null ? root : cwd).toFile());
    return run(pb, cwd, timeoutS);
  }

  private Result run(ProcessBuilder pb, Path cwd, int timeoutS) throws IOException, InterruptedException {
    return execute(pb, stdin.get(), timeoutS, pb.command());
  }

  /**
   * Runs a prepared command to its end (stdin from a file, or /dev/null), its output kept in
   * files rather than pipes so a chatty command cannot block on a full pipe.
   */
  static Result execute(ProcessBuilder pb, Path stdinFile, int timeoutS, List<String> cmd)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("e2e", ".out");
    Path err = Files.createTempFile("e2e", ".err");
    try {
      Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(
              stdinFile != null ? stdinFile.toFile() : new java.io.File("/dev/null"))).start();
      if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + cmd);
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** The user's JWT for slurmrestd: the SLURM_JWT=... of `scontrol token` run as them. */
  String token(TestUsers.User user) throws IOException, InterruptedException {
    Result r = as(user, "scontrol", "token");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("SLURM_JWT=(\\S+)").matcher(r.out());
    if (r.exitCode() != 0 || !m.find()) {
      throw new IllegalStateException("scontrol token as " + user.name() + ": " + r.out() + r.err());
    }
    return m.group(1);
  }

  /** A directory owned by the user, for job scripts and outputs. */
  Path workDir(TestUsers.User user) throws IOException, InterruptedException {
    Path d = root.resolve("work-" + user.name());
    Files.createDirectories(d);
    new ProcessBuilder("chown", user.uid() + ":" + user.gid(), d.toString()).start().waitFor();
    return d;
  }

  /** The job's state as squeue prints it (%T), "" once it is gone. */
  String state(int jobId) throws IOException, InterruptedException {
    return as(null, "squeue", "-h", "-t", "all", "-j", String.valueOf(jobId), "-o", "%T").out().trim();
  }

  /** Cancels these users' jobs and waits until none is left, so the next test starts on empty nodes. */
  void cancelAllOf(TestUsers.User... users) throws IOException, InterruptedException {
    for (TestUsers.User u : users) {
      as(null, "scancel", "-u", u.name());
    }
    while (!as(null, "squeue", "-h").out().isBlank()) {
      Thread.sleep(200);
    }
  }

  /** Waits until the job reaches the state; returns the last state seen. */
  String awaitState(int jobId, String wanted, int timeoutS) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    String s = "";
    while (System.nanoTime() < deadline) {
      s = state(jobId);
      if (s.equals(wanted)) {
        return s;
      }
      Thread.sleep(250);
    }
    return s;
  }

  long pid(String pidFile) throws IOException {
    return Long.parseLong(Files.readString(dir.resolve(pidFile)).trim());
  }

  static int jobId(Result submitted) {
    String s = submitted.out().trim();
    if (!s.startsWith("Submitted batch job ")) {
      throw new IllegalStateException("sbatch did not submit: " + submitted);
    }
    return Integer.parseInt(s.substring("Submitted batch job ".length()));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    for (String u : List.of("root", TestUsers.ALICE, TestUsers.BOB)) {
      as(null, "scancel", "-u", u);
    }
    corral("down", "--dir", dir.toString());
    stopCommandServers();
    killLeftovers();
    new ProcessBuilder("rm", "-rf", root.toString()).start().waitFor();
  }

  /**
   * Stops the command servers (docs/adr/0007-resident-command-server.md) that this cluster's
   * commands started for root and the test users: each installation copy has its own.
   */
  void stopCommandServers() throws IOException, InterruptedException {
    Path front = home.resolve("libexec/corral-front");
    for (String u : List.of("root", TestUsers.ALICE, TestUsers.BOB)) {
      Process id = new ProcessBuilder("id", "-u", u).redirectErrorStream(true).start();
      String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (id.waitFor() != 0) {
        continue;
      }
      List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
          front.toString(), "--stop-server"));
      ProcessBuilder pb = new ProcessBuilder(cmd);
      pb.environment().remove("XDG_RUNTIME_DIR");
      pb.environment().remove("CORRAL_COMMAND_SERVER_DIR");
      execute(pb, null, 30, cmd);
    }
  }

  /**
   * A test that fails half-way (or kills a node daemon on purpose) can leave job processes of
   * this cluster behind: their job shells live under this cluster's directory. Kill them and
   * what they started, by pid.
   */
  private void killLeftovers() {
    processes().forEach(p -> {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    });
  }

  /** The processes whose command line names this cluster's directory (daemons, launchers, job shells). */
  List<ProcessHandle> processes() {
    String mark = root.toString();
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(mark)).orElse(false)).toList();
  }
}
