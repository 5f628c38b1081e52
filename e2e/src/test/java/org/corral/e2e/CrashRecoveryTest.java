package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of slurmctld while 8 clients submit: after `corral up` restarts it, every job that was
 * acknowledged is there with its script (it runs and prints its token), no id is given twice,
 * and a job that was running through the crash still has its completion recorded.
 */
class CrashRecoveryTest {
  private static final int CLIENTS = 8;
  private static final int MAX_PER_CLIENT = 60;

  @Test
  void acknowledgedJobsSurviveAKill9() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons");
    try (LocalCluster cluster = LocalCluster.up(2, 4, 4000)) {
      Path outDir = cluster.root.resolve("out");
      Files.createDirectories(outDir);
      UnixSocketChannel ctld = new UnixSocketChannel(
          cluster.dir.resolve("slurmctld-" + cluster.portBase + ".sock"));

      int survivor = submit(ctld, outDir, "#!/bin/sh\nsleep 4\necho survivor\n");
      assertThat(cluster.awaitState(survivor, "RUNNING", 30)).isEqualTo("RUNNING");

      Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        clients.add(Thread.ofPlatform().start(() -> {
          for (int i = 0; i < MAX_PER_CLIENT && !stop.get(); i++) {
            sleep(20);
            String token = "token-" + client + "-" + i;
            try {
              Integer prev = null;
              int id = submit(ctld, outDir, "#!/bin/sh\necho " + token + "\n");
              prev = acknowledged.containsKey(id) ? id : null;
              assertThat(prev).as("job id %d given twice", id).isNull();
              acknowledged.put(id, token);
            } catch (IOException e) {
              sleep(50); // the controller is down: try again
            }
          }
        }));
      }
      sleep(300);
      long pid = cluster.pid("slurmctld.pid");
      new ProcessBuilder("kill", "-9", String.valueOf(pid)).start().waitFor();
      sleep(500);
      assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();
      sleep(1000);
      stop.set(true);
      for (Thread t : clients) {
        t.join(120_000);
      }

      Response all = ctld.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build());
      Map<Integer, JobInfo> known = new java.util.HashMap<>();
      for (JobInfo j : all.getJobInfo().getJobsList()) {
        known.put(j.getJobId(), j);
      }
      assertThat(known.keySet()).containsAll(acknowledged.keySet());
      assertThat(acknowledged).hasSizeGreaterThan(CLIENTS);

      awaitAllCompleted(ctld, acknowledged.keySet(), 180);
      for (Map.Entry<Integer, String> e : acknowledged.entrySet()) {
        assertThat(Files.readString(outDir.resolve(e.getKey() + ".out")).trim()).isEqualTo(e.getValue());
      }
      assertThat(cluster.awaitState(survivor, "COMPLETED", 60)).isEqualTo("COMPLETED");
      assertThat(Files.readString(outDir.resolve(survivor + ".out")).trim()).isEqualTo("survivor");
    }
  }

  /** Waits until each of the jobs is COMPLETED and no longer completing (ReplicatedControllersTest too). */
  static void awaitAllCompleted(org.corral.protocol.RpcChannel ctld, java.util.Set<Integer> ids, int timeoutS)
      throws IOException {
    long deadline = System.nanoTime() + timeoutS * 1_000_000_000L;
    List<Integer> notDone = List.of();
    while (System.nanoTime() < deadline) {
      Response r = ctld.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build());
      Map<Integer, JobInfo> byId = new java.util.HashMap<>();
      r.getJobInfo().getJobsList().forEach(j -> byId.put(j.getJobId(), j));
      notDone = ids.stream().filter(id -> byId.get(id) == null
          || byId.get(id).getState() != org.corral.protocol.msg.JobState.COMPLETED
          || byId.get(id).getCompleting()).toList();
      if (notDone.isEmpty()) {
        return;
      }
      sleep(500);
    }
    assertThat(notDone).as("jobs not COMPLETED in time").isEmpty();
  }

  private static int submit(UnixSocketChannel ctld, Path outDir, String script) throws IOException {
    return submit(ctld, JobSpec.newBuilder().setName("crash").setScript(script)
        .setWorkDir(outDir.toString()).setStdOut(outDir + "/%j.out")
        .addEnvironment("PATH=/usr/bin:/bin").setCpusPerTask(1).build());
  }

  /** Submits straight over the controller's RPC (no sbatch), as the tests that kill controllers do. */
  static int submit(RpcChannel ctld, JobSpec spec) throws IOException {
    Response r = ctld.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec)).build());
    if (r.getErrorCode() != 0) {
      throw new IOException("submit refused: " + r.getErrorMessage());
    }
    return r.getSubmitJob().getJobId();
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
