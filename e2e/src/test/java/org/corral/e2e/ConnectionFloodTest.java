package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.corral.testkit.ConnectionFlood;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's connection attacks on a running cluster, by a plain user: 2,000 idle connections to
 * the controller's socket, unauthenticated TCP connections sending a frame a byte a second (from
 * the nodes' own address), and frames announcing 60 MiB. Another user's squeue keeps answering
 * and his running job is neither killed nor requeued; the nodes stay up past SlurmdTimeout.
 * squeue's latency during the attack is printed (docs/BENCHMARKS.md), not asserted.
 */
class ConnectionFloodTest {
  private static final int ATTACK_S = 40; // past the local cluster's SlurmdTimeout (30 s)
  private static LocalCluster cluster;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and switch users");
    cluster = LocalCluster.up(2, 2, 1000);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aUsersFloodStarvesNeitherOtherUsersNorTheNodes() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    Path work = cluster.workDir(bob);
    LocalCluster.Result submitted = cluster.as(bob, work, "sbatch", "-N1", "--wrap", "sleep 600");
    int job = LocalCluster.jobId(submitted);
    awaitState(job, "RUNNING");
    String started = cluster.as(bob, "squeue", "-h", "-j", String.valueOf(job), "-o", "%S").out().trim();
    List<Long> before = squeueLatencies(bob, 5, 0);

    String socket = "unix:" + controllerSocket();
    String tcp = "tcp:127.0.0.1:" + cluster.portBase;
    List<Long> during;
    ConnectionFlood.Outcome idle;
    ConnectionFlood.Outcome loris;
    ConnectionFlood.Outcome big;
    // the large frames first: afterwards alice's idle connections hold all her share of the socket
    try (ConnectionFlood bigFlood = ConnectionFlood.start(alice, socket, 50, "big", ATTACK_S + 30);
        ConnectionFlood idleFlood = ConnectionFlood.start(alice, socket, 2000, false, ATTACK_S + 30);
        ConnectionFlood lorisFlood = ConnectionFlood.start(alice, tcp, 500, true, ATTACK_S + 30)) {
      during = squeueLatencies(bob, ATTACK_S / 2, 2000);
      idle = idleFlood.finish();
      loris = lorisFlood.finish();
      big = bigFlood.finish();
    }
    System.out.println("squeue before the attack (ms): " + before);
    System.out.println("squeue during the attack (ms): " + during + " median " + median(during)
        + " max " + Collections.max(during));
    System.out.println("alice's idle connections: " + idle + "; slow loris: " + loris + "; " + big);

    assertThat(big.stillOpen()).as("60 MiB frames refused, their connections closed").isZero();
    assertThat(idle.stillOpen()).as("alice keeps her share of the socket, no more").isLessThanOrEqualTo(256);
    assertThat(loris.stillOpen()).as("unauthenticated connections closed").isLessThanOrEqualTo(128);
    assertThat(cluster.as(bob, "squeue", "-h", "-j", String.valueOf(job), "-o", "%T %S").out().trim())
        .as("bob's job runs on, never requeued").isEqualTo("RUNNING " + started);
    assertThat(cluster.as(null, "sinfo", "-h", "-N", "-o", "%N %T").out())
        .as("no node declared dead").doesNotContain("down").doesNotContain("*");
    cluster.as(null, "scancel", String.valueOf(job));
  }

  /** Runs bob's squeue {@code n} times, {@code gapMs} apart; each must answer. */
  private static List<Long> squeueLatencies(TestUsers.User user, int n, long gapMs) throws Exception {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      LocalCluster.Result r = cluster.as(user, "squeue", "-h");
      out.add((System.nanoTime() - t0) / 1_000_000);
      assertThat(r.exitCode()).as("squeue during the attack: %s", r.err()).isZero();
      Thread.sleep(gapMs);
    }
    return out;
  }

  private static long median(List<Long> xs) {
    List<Long> sorted = new ArrayList<>(xs);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static Path controllerSocket() throws IOException {
    try (Stream<Path> all = Files.walk(cluster.root)) {
      return all.filter(p -> p.getFileName().toString().matches("slurmctld-\\d+\\.sock")).findFirst()
          .orElseThrow(() -> new IOException("no controller socket under " + cluster.root));
    }
  }

  private static void awaitState(int job, String state) throws Exception {
    for (int i = 0; i < 300 && !cluster.state(job).equals(state); i++) {
      Thread.sleep(100);
    }
    assertThat(cluster.state(job)).isEqualTo(state);
  }
}
