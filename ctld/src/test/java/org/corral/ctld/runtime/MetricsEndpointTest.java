package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.RegisterNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.protocol.msg.TokenRequest;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MetricsType=metrics/openmetrics: the controller answers HTTP GETs on its RPC port with Slurm
 * 25.11's metrics, whose values agree with what squeue and sinfo read (the same job and node
 * queries), whose text a real Prometheus parser accepts, and whose port survives hostile HTTP.
 */
class MetricsEndpointTest {
  @TempDir Path dir;

  private SlurmConfig config(int ctldPort, String extra) throws Exception {
    return TestClusterConfig.write(dir, ctldPort, """
        SlurmdTimeout=300
        DefMemPerCPU=100
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        NodeName=n2 NodeAddr=127.0.0.1 Port=%d CPUs=2 RealMemory=500
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(FreePorts.one(), FreePorts.one()) + extra);
  }

  private static Request submit(int cpus, boolean hold) {
    return Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
        .setName("m").setScript("#!/bin/sh\ntrue\n").setWorkDir("/tmp").setNumTasks(cpus).setHold(hold))).build();
  }

  @Test
  void endpointsAgreeWithTheQueuesAndParse() throws Exception {
    int port = FreePorts.one();
    SlurmConfig cfg = config(port, "MetricsType=metrics/openmetrics\n");
    Credentials nodeCreds = new Credentials(ClusterKey.load(dir.resolve("slurm.key")), "n1", Clock.systemUTC());
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      TcpChannel nodeLink = new TcpChannel("127.0.0.1", port, "slurmctld", nodeCreds, Duration.ofSeconds(5));
      assertThat(user.call(submit(3, false)).getErrorCode()).isZero();
      assertThat(user.call(submit(4, false)).getErrorCode()).isZero();
      assertThat(user.call(submit(1, true)).getErrorCode()).isZero();
      assertThat(nodeLink.call(Request.newBuilder().setRegisterNode(RegisterNodeRequest.newBuilder()
          .setNodeName("n1").setCpus(4).setRealMemoryMb(1000).setSlurmdStartTime(1)).build())
          .getErrorCode()).isZero();
      List<JobInfo> jobs = List.of();
      for (int i = 0; i < 100; i++) {
        jobs = user.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build())
            .getJobInfo().getJobsList();
        if (jobs.stream().anyMatch(j -> j.getState() == JobState.RUNNING)) {
          break;
        }
        Thread.sleep(100);
      }
      long running = jobs.stream().filter(j -> j.getState() == JobState.RUNNING).count();
      long pending = jobs.stream().filter(j -> j.getState() == JobState.PENDING).count();
      long runningCpus = jobs.stream().filter(j -> j.getState() == JobState.RUNNING)
          .mapToLong(JobInfo::getNumCpus).sum();
      assertThat(running).isEqualTo(1);

      String jobsText = body(get(port, "/metrics/jobs"));
      assertThat(value(jobsText, "slurm_jobs")).isEqualTo(3);
      assertThat(value(jobsText, "slurm_jobs_running")).isEqualTo(running);
      assertThat(value(jobsText, "slurm_jobs_pending")).isEqualTo(pending);
      assertThat(value(jobsText, "slurm_jobs_hold")).isEqualTo(1);
      assertThat(value(jobsText, "slurm_jobs_cpus_alloc")).isEqualTo(runningCpus);
      assertThat(value(jobsText, "slurm_jobs_memory_alloc")).isEqualTo(runningCpus * 100 * 1024 * 1024);
      assertThat(jobsText).contains("# TYPE slurm_jobs gauge\n", "# HELP slurm_jobs Total number of jobs\n");

      var nodes = user.call(Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build())
          .getNodeInfo().getNodesList();
      String nodesText = body(get(port, "/metrics/nodes"));
      assertThat(value(nodesText, "slurm_nodes")).isEqualTo(nodes.size());
      assertThat(value(nodesText, "slurm_node_cpus{node=\"n1\"}")).isEqualTo(4);
      assertThat(value(nodesText, "slurm_node_cpus_alloc{node=\"n1\"}")).isEqualTo(nodes.get(0).getAllocCpus());
      assertThat(value(nodesText, "slurm_node_memory_bytes{node=\"n2\"}")).isEqualTo(500L << 20);
      assertThat(value(nodesText, "slurm_nodes_unknown")).isEqualTo(1); // n2 never registered
      assertThat(value(nodesText, "slurm_nodes_mixed") + value(nodesText, "slurm_nodes_alloc")).isEqualTo(1);

      String parts = body(get(port, "/metrics/partitions"));
      assertThat(value(parts, "slurm_partitions")).isEqualTo(1);
      assertThat(value(parts, "slurm_partition_jobs{partition=\"debug\"}")).isEqualTo(3);
      assertThat(value(parts, "slurm_partition_jobs_pending{partition=\"debug\"}")).isEqualTo(pending);
      assertThat(value(parts, "slurm_partition_cpus{partition=\"debug\"}")).isEqualTo(6);
      assertThat(value(parts, "slurm_partition_nodes{partition=\"debug\"}")).isEqualTo(2);

      String ua = body(get(port, "/metrics/jobs-users-accts"));
      assertThat(value(ua, "slurm_user_jobs{username=\"root\"}")).isEqualTo(3);
      assertThat(value(ua, "slurm_user_jobs_pending{username=\"root\"}")).isEqualTo(pending);

      String sched = body(get(port, "/metrics/scheduler"));
      assertThat(value(sched, "slurm_schedule_cycle_cnt")).isPositive();
      assertThat(value(sched, "slurm_sdiag_jobs_submitted")).isEqualTo(3);

      String corral = body(get(port, "/metrics/corral"));
      assertThat(value(corral, "corral_user_jobs_running{username=\"root\"}")).isEqualTo(1);
      assertThat(value(corral, "corral_user_jobs_pending{username=\"root\",reason=\"JobHeldUser\"}")).isEqualTo(1);
      assertThat(value(corral, "corral_scheduler_pass_seconds_count")).isPositive();
      assertThat(value(corral, "corral_journal_sync_seconds_count")).isPositive();
      assertThat(value(corral, "corral_rpc_seconds_count{type=\"REQUEST_SUBMIT_BATCH_JOB\"}")).isEqualTo(3);
      assertThat(corral).contains("# TYPE corral_rpc_user_requests_total counter\n");

      String index = body(get(port, "/metrics"));
      assertThat(index).contains("/metrics/jobs\n", "/metrics/scheduler\n");
      assertThat(get(port, "/metrics/nothing")).startsWith("HTTP/1.1 404 ");
      assertThat(request(port, "POST /metrics/jobs HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 405 ");
      assertThat(request(port, "HEAD /metrics/jobs HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ")
          .doesNotContain("slurm_jobs");

      String om = request(port, "GET /metrics/corral HTTP/1.1\r\nAccept: application/openmetrics-text\r\n\r\n");
      assertThat(om).contains("Content-Type: application/openmetrics-text; version=1.0.0");
      assertThat(body(om)).endsWith("# EOF\n").contains("# TYPE corral_rpc_user_requests counter\n");

      for (String path : List.of("/metrics/jobs", "/metrics/jobs-users-accts", "/metrics/nodes",
          "/metrics/partitions", "/metrics/scheduler", "/metrics/corral")) {
        parses(body(get(port, path)), false);
      }
      parses(body(om), true);
    }
  }

  @Test
  void hostileHttpNeitherStallsNorBreaksTheController() throws Exception {
    int port = FreePorts.one();
    SlurmConfig cfg = config(port, "MetricsType=metrics/openmetrics\n");
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(request(port, "GET /metrics/jobs HTTP/1.1\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n"))
          .startsWith("HTTP/1.1 431 ");
      assertThat(request(port, "GARBAGE\r\n\r\n")).startsWith("HTTP/1.1 400 ");
      assertThat(request(port, "GET metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400 ");
      // slow senders: more than may be served at once each send a little and stall
      List<Socket> slow = new ArrayList<>();
      try {
        for (int i = 0; i < 40; i++) {
          Socket s = new Socket("127.0.0.1", port);
          s.getOutputStream().write("GET /metrics/jobs HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
          slow.add(s);
        }
        Thread.sleep(300);
        assertThat(get(port, "/metrics/jobs")).startsWith("HTTP/1.1 503 ");
        // the controller's own business goes on meanwhile
        assertThat(user.call(submit(1, false)).getErrorCode()).isZero();
        // the stalled ones are cut off after HttpEndpoint's 10 s, and scrapes work again
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String again = get(port, "/metrics/jobs");
        while (!again.startsWith("HTTP/1.1 200 ") && System.nanoTime() < deadline) {
          Thread.sleep(500);
          again = get(port, "/metrics/jobs");
        }
        assertThat(again).startsWith("HTTP/1.1 200 ");
        slow.get(0).setSoTimeout(5000);
        int first;
        try {
          first = slow.get(0).getInputStream().read();
        } catch (java.net.SocketException reset) {
          first = -1;
        }
        assertThat(first).as("a stalled request is ended (EOF or a 408), never left open").isIn(-1, (int) 'H');
      } finally {
        for (Socket s : slow) {
          s.close();
        }
      }
      assertThat(user.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build())
          .getJobInfo().getJobsCount()).isEqualTo(1);
    }
  }

  @Test
  void withoutMetricsTypeThePortSpeaksNoHttp() throws Exception {
    int port = FreePorts.one();
    SlurmConfig cfg = config(port, "");
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      assertThat(get(port, "/metrics/jobs")).doesNotStartWith("HTTP/");
    }
  }

  @Test
  void privateDataRestrictsTheMetricsToTokensOfRootAndSlurmUser() throws Exception {
    int port = FreePorts.one();
    SlurmConfig cfg = config(port, "MetricsType=metrics/openmetrics\nPrivateData=jobs\n");
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
        Duration.ofSeconds(2))) {
      UnixSocketChannel root = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
      assertThat(get(port, "/metrics/jobs")).startsWith("HTTP/1.1 401 ");
      String rootToken = root.call(Request.newBuilder().setToken(TokenRequest.getDefaultInstance()).build())
          .getToken().getToken();
      String otherToken = root.call(Request.newBuilder().setToken(TokenRequest.newBuilder().setUserName("nobody"))
          .build()).getToken().getToken();
      assertThat(request(port, "GET /metrics/jobs HTTP/1.1\r\nX-SLURM-USER-TOKEN: " + rootToken + "\r\n\r\n"))
          .startsWith("HTTP/1.1 200 ");
      assertThat(request(port, "GET /metrics/jobs HTTP/1.1\r\nAuthorization: Bearer " + rootToken + "\r\n\r\n"))
          .startsWith("HTTP/1.1 200 ");
      assertThat(request(port, "GET /metrics/jobs HTTP/1.1\r\nX-SLURM-USER-TOKEN: " + otherToken + "\r\n\r\n"))
          .startsWith("HTTP/1.1 403 ");
      String forged = rootToken.substring(0, rootToken.lastIndexOf('.') + 1) + "AAAA";
      assertThat(request(port, "GET /metrics/jobs HTTP/1.1\r\nX-SLURM-USER-TOKEN: " + forged + "\r\n\r\n"))
          .startsWith("HTTP/1.1 401 ");
    }
  }

  /** Parses the text with the Prometheus project's own Python parser (Debian python3-prometheus-client). */
  private void parses(String text, boolean openMetrics) throws Exception {
    Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import prometheus_client").redirectErrorStream(true).start();
    assumeThat(probe.waitFor()).as("python3-prometheus-client is installed (.ci/run installs it)").isZero();
    Path file = Files.createTempFile(dir, "metrics", ".txt");
    Files.writeString(file, text);
    String parser = openMetrics ? "prometheus_client.openmetrics.parser" : "prometheus_client.parser";
    Process p = new ProcessBuilder("/usr/bin/python3", "-c", """
        import sys, importlib
        m = importlib.import_module(sys.argv[1])
        n = sum(len(f.samples) for f in m.text_string_to_metric_families(open(sys.argv[2]).read()))
        print(n)
        """, parser, file.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(Integer.parseInt(out.trim())).isPositive();
  }

  private static long value(String text, String sample) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(text);
    assertThat(m.find()).as(sample + " in\n" + text).isTrue();
    return (long) Double.parseDouble(m.group(1));
  }

  private static String body(String response) {
    assertThat(response).startsWith("HTTP/1.1 200 ");
    return response.substring(response.indexOf("\r\n\r\n") + 4);
  }

  private static String get(int port, String path) throws IOException {
    return request(port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
  }

  private static String request(int port, String raw) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      try {
        out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      } catch (IOException closedEarly) {
        // the server may answer and close before reading all of a refused request
      }
      InputStream in = s.getInputStream();
      try {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      } catch (IOException reset) {
        return "";
      }
    }
  }
}
