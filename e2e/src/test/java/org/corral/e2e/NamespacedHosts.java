package org.corral.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.corral.e2e.LocalCluster.Result;
import org.corral.testkit.FreePorts;
import org.corral.testkit.TestUsers;

/**
 * A cluster of four hosts on this machine (`corral up --hosts`): a controller, a login host and
 * two compute hosts, each in its own network, mount and UTS namespace, so commands on the login
 * host reach the daemons only over the network. Users work from the login host as on a real
 * site; alice has a work directory in her home, which every host shares. Skips (JUnit
 * assumption) where the kernel forbids namespaces or the test is not root.
 *
 * <p>CORRAL_NETNS_PREFIX names the namespaces (default {@code corral-}), so runs beside each
 * other stay apart.
 */
final class NamespacedHosts implements AutoCloseable {
  static final Path HOME = Path.of(System.getProperty("corral.home"));

  final Path dir;
  final Path work;
  final int portBase;
  final TestUsers.User alice;
  final TestUsers.User bob;
  /** The compute hosts' node names. */
  final String c1;
  final String c2;

  private NamespacedHosts(Path dir, Path work, int portBase, TestUsers.User alice,
      TestUsers.User bob, String name) {
    this.dir = dir;
    this.work = work;
    this.portBase = portBase;
    this.alice = alice;
    this.bob = bob;
    this.c1 = name + "c1";
    this.c2 = name + "c2";
  }

  /**
   * Starts the hosts with AuthType=auth/{@code auth} on {@code subnet} (A.B.C: hosts at .10-.20);
   * {@code extra} are more options of `corral up --hosts`.
   */
  static NamespacedHosts start(String auth, String subnet, String... extra) throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to make namespaces and run the daemons");
    Result probe = run(List.of(HOME.resolve("libexec/corral-hosts").toString(), "probe",
        "--auth", auth), null);
    assumeTrue(probe.exitCode() == 0, "namespaced hosts unavailable here: " + probe.out());
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    int portBase = FreePorts.block(60);
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "corral-hosts-");
    String prefix = System.getenv().getOrDefault("CORRAL_NETNS_PREFIX", "corral-") + "m" + portBase
        + "-";
    Path work = Path.of("/home", alice.name(), "multihost-" + portBase);
    NamespacedHosts hosts = new NamespacedHosts(dir, work, portBase, alice, bob,
        prefix.replaceAll("[^a-z0-9]", ""));
    List<String> up = new ArrayList<>(List.of("up", "--hosts", "--dir", dir.toString(),
        "--port-base", String.valueOf(portBase), "--netns-prefix", prefix, "--subnet", subnet,
        "--auth", auth));
    up.addAll(Arrays.asList(extra));
    Result r = corral(up.toArray(String[]::new));
    if (r.exitCode() != 0) {
      hosts.close();
      throw new IllegalStateException("corral up --hosts failed: " + r);
    }
    Files.createDirectories(work);
    run(List.of("chown", alice.uid() + ":" + alice.gid(), work.toString()), null);
    return hosts;
  }

  /** Runs {@code command} on {@code host} as {@code user}, in alice's work directory. */
  Result on(String host, TestUsers.User user, String... command)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("corral").toString(), "on", "--dir",
        dir.toString(), host, "-u", user.name(), "--"));
    cmd.addAll(Arrays.asList(command));
    return run(cmd, work);
  }

  /** Waits (bounded) until job {@code id} has left the queue, as alice sees it from the login host. */
  void awaitGone(String id) throws IOException, InterruptedException {
    for (int i = 0; i < 120 && !on("login", alice, "squeue", "-h", "-j", id).out().isBlank(); i++) {
      Thread.sleep(500);
    }
  }

  /** Runs a main class of the e2e tests' classes on {@code host} as {@code user}. */
  Result java(String host, TestUsers.User user, Class<?> main, String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = HOME.resolve("build/lib") + "/*:" + Path.of(main
        .getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> cmd = new ArrayList<>(List.of(java, "-cp", cp, main.getName()));
    cmd.addAll(Arrays.asList(args));
    return on(host, user, cmd.toArray(String[]::new));
  }

  @Override
  public void close() throws IOException, InterruptedException {
    corral("down", "--hosts", "--dir", dir.toString());
    run(List.of("rm", "-rf", dir.toString()), null);
    run(List.of("rm", "-rf", work.toString()), null);
  }

  private static Result corral(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(HOME.resolve("corral").toString()));
    cmd.addAll(Arrays.asList(args));
    return run(cmd, null);
  }

  private static Result run(List<String> cmd, Path cwd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("CORRAL_SKIP_BUILD", "1");
    String share = Path.of(NamespacedHosts.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();
    pb.environment().put("CORRAL_HOSTS_SHARE", share);
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    return LocalCluster.execute(pb, null, 300, cmd);
  }
}
