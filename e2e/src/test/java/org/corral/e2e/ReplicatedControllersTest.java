package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.corral.protocol.ControllerFailover;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three controllers (SlurmctldHost listed three times, at 127.0.0.1-3 on one host) replicating
 * their journal through Raft. scontrol ping shows each; the leader is killed with kill -9 while
 * eight clients submit: every acknowledged submission is on the new leader, no job id is given
 * twice, every job runs exactly once, and the clients reach the new leader within seconds.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicatedControllersTest {
  private static final int CLIENTS = 8;
  private static final int MAX_PER_CLIENT = 25;
  private static final String[] NAMES = {"c0", "c1", "c2"};

  private static LocalCluster cluster;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    cluster = LocalCluster.upWithConfig(2, """
        ClusterName=ha
        SlurmctldHost=c0(127.0.0.1)
        SlurmctldHost=c1(127.0.0.2)
        SlurmctldHost=c2(127.0.0.3)
        NodeName=h[1-2] CPUs=4 RealMemory=2000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void pingShowsEveryControllerAndOneLeads() throws Exception {
    LocalCluster.Result r = cluster.as(null, "scontrol", "ping");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("""
        Slurmctld(primary) at c0 is UP
        Slurmctld(backup1) at c1 is UP
        Slurmctld(backup2) at c2 is UP
        """);
    assertThat(Stream.of(0, 1, 2).filter(i -> ping(i).map(PingReply::getLeader).orElse(false)).count())
        .isEqualTo(1);
  }

  @Test
  @Order(2)
  void takeoverHandsTheLeadToTheBackupNamed() throws Exception {
    int expected = leader() == 1 ? 2 : 1;
    LocalCluster.Result r = cluster.as(null, "scontrol", "takeover", String.valueOf(expected));
    assertThat(r.exitCode()).as(r.toString()).isZero();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (leader() != expected && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(leader()).isEqualTo(expected);
    LocalCluster.Result sub = cluster.as(null, "sbatch", "--wrap", "true");
    assertThat(sub.out()).as(sub.toString()).startsWith("Submitted batch job ");
  }

  @Test
  @Order(3)
  void killingTheLeaderLosesNoAcknowledgedSubmission() throws Exception {
    Path outDir = cluster.root.resolve("out");
    Files.createDirectories(outDir);
    RpcChannel ctld = anyLeader();
    Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
    Set<Integer> duplicates = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong killedAt = new AtomicLong();
    AtomicLong firstAfterKill = new AtomicLong();
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      clients.add(Thread.ofPlatform().start(() -> {
        RpcChannel mine = anyLeader();
        for (int i = 0; i < MAX_PER_CLIENT && !stop.get(); i++) {
          CrashRecoveryTest.sleep(30);
          String token = "token-" + client + "-" + i;
          try {
            int id = submit(mine, outDir, token);
            long k = killedAt.get();
            if (k != 0) {
              firstAfterKill.compareAndSet(0, System.nanoTime());
            }
            if (acknowledged.putIfAbsent(id, token) != null) {
              duplicates.add(id);
            }
          } catch (IOException e) {
            CrashRecoveryTest.sleep(50); // no controller answered in time: go on with the next
          }
        }
      }));
    }
    CrashRecoveryTest.sleep(1500);
    int leader = leader();
    long pid = cluster.pid(leader == 0 ? "slurmctld.pid" : "slurmctld.pid." + leader);
    new ProcessBuilder("kill", "-9", String.valueOf(pid)).start().waitFor();
    killedAt.set(System.nanoTime());
    for (Thread t : clients) {
      t.join(180_000);
    }
    stop.set(true);

    assertThat(duplicates).as("job ids given twice").isEmpty();
    assertThat(acknowledged).hasSizeGreaterThan(CLIENTS);
    assertThat(firstAfterKill.get()).as("a submission acknowledged after the kill").isNotZero();
    double failoverS = (firstAfterKill.get() - killedAt.get()) / 1e9;
    System.out.printf("ReplicatedControllersTest: %d submissions acknowledged; first after the kill %.2f s%n",
        acknowledged.size(), failoverS);

    Map<Integer, JobInfo> known = jobs(ctld);
    assertThat(known.keySet()).as("acknowledged jobs on the new leader").containsAll(acknowledged.keySet());
    CrashRecoveryTest.awaitAllCompleted(ctld, acknowledged.keySet(), 240);
    for (Map.Entry<Integer, String> e : acknowledged.entrySet()) {
      assertThat(Files.readAllLines(outDir.resolve("ran-" + e.getKey())))
          .as("job %d ran exactly once", e.getKey()).containsExactly(e.getValue());
    }
  }

  /** A channel to whichever controller leads, through their Unix sockets. */
  private static RpcChannel anyLeader() {
    List<RpcChannel> all = new ArrayList<>();
    for (int i = 0; i < NAMES.length; i++) {
      all.add(socket(i));
    }
    return new ControllerFailover(all, 60_000);
  }

  private static UnixSocketChannel socket(int index) {
    String suffix = index == 0 ? "" : "-" + index;
    return new UnixSocketChannel(cluster.dir.resolve("slurmctld-" + cluster.portBase + suffix + ".sock"));
  }

  private static java.util.Optional<PingReply> ping(int index) {
    try {
      Response r = socket(index).call(Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
      return r.getErrorCode() == 0 ? java.util.Optional.of(r.getPing()) : java.util.Optional.empty();
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }

  /** The index of the controller that leads, waiting for an election if none does yet. */
  private static int leader() throws InterruptedException {
    for (int round = 0; round < 100; round++) {
      for (int i = 0; i < NAMES.length; i++) {
        if (ping(i).map(PingReply::getLeader).orElse(false)) {
          return i;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no controller leads");
  }

  private static Map<Integer, JobInfo> jobs(RpcChannel ctld) throws IOException {
    Response all = ctld.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build());
    Map<Integer, JobInfo> known = new HashMap<>();
    for (JobInfo j : all.getJobInfo().getJobsList()) {
      known.put(j.getJobId(), j);
    }
    return known;
  }

  private static int submit(RpcChannel ctld, Path outDir, String token) throws IOException {
    return CrashRecoveryTest.submit(ctld, JobSpec.newBuilder().setName("ha")
        .setScript("#!/bin/sh\necho " + token + " >> " + outDir + "/ran-$SLURM_JOB_ID\n")
        .setWorkDir(outDir.toString()).setStdOut("/dev/null")
        .addEnvironment("PATH=/usr/bin:/bin").setCpusPerTask(1).build());
  }
}
