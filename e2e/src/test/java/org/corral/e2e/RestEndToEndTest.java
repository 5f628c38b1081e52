package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Slurm's REST API on a real `corral up` cluster (slurmrestd at port base + 3, slurmdbd, a node),
 * as real users: a token from `scontrol token`, a job submitted over HTTP (held, so it is still
 * there to cancel), listed, refused to
 * another user's cancel, cancelled by its owner, and its accounting record read back through
 * /slurmdb/.
 */
class RestEndToEndTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static LocalCluster cluster;
  private static String base;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and create users");
    cluster = LocalCluster.up(1, 2, 1000);
    base = "http://127.0.0.1:" + (cluster.portBase + 3);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String token(TestUsers.User user) throws Exception {
    return cluster.token(user);
  }

  private static HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .header("X-SLURM-USER-TOKEN", token)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aUserSubmitsListsCancelsAndFindsTheRecordAndAnotherCannotCancel() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    String aliceToken = token(alice);
    String bobToken = token(bob);

    HttpResponse<String> submitted = send("POST", "/slurm/v0.0.42/job/submit", aliceToken, """
        {"job":{"script":"#!/bin/sh\\nsleep 300\\n","name":"rest-e2e","current_working_directory":"/tmp","hold":true,
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":10}}}""");
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(200);
    Matcher id = Pattern.compile("\"job_id\":(\\d+)").matcher(submitted.body());
    assertThat(id.find()).as(submitted.body()).isTrue();
    int job = Integer.parseInt(id.group(1));

    HttpResponse<String> listed = send("GET", "/slurm/v0.0.42/jobs", aliceToken, null);
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(listed.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(listed.body()).contains("\"job_id\":" + job + ",").contains("\"user_name\":\"" + alice.name() + "\"")
        .contains("\"name\":\"rest-e2e\"");

    HttpResponse<String> refused = send("DELETE", "/slurm/v0.0.42/job/" + job, bobToken, null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(500);
    assertThat(refused.body()).contains("\"error_number\":2002");
    assertThat(send("GET", "/slurm/v0.0.42/job/" + job, aliceToken, null).body()).doesNotContain("CANCELLED");

    HttpResponse<String> cancelled = send("DELETE", "/slurm/v0.0.42/job/" + job, aliceToken, null);
    assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
    assertThat(cancelled.body()).contains("\"errors\":[]");

    // The controller ships the record to slurmdbd; read it back as alice through /slurmdb/.
    String record = "";
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = send("GET", "/slurmdb/v0.0.42/job/" + job, aliceToken, null);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      record = r.body();
      if (record.contains("\"current\":[\"CANCELLED\"]")) {
        break;
      }
      Thread.sleep(500);
    }
    assertThat(record).contains("\"current\":[\"CANCELLED\"]").contains("\"job_id\":" + job + ",")
        .contains("\"user\":\"" + alice.name() + "\"").contains("\"kill_request_user\":\"" + alice.name() + "\"")
        .contains("\"type\":\"openapi/slurmdbd\"");
    HttpResponse<String> listedInAccounting = send("GET",
        "/slurmdb/v0.0.42/jobs?users=" + alice.name() + "&state=CANCELLED&job_name=rest-e2e", aliceToken, null);
    assertThat(listedInAccounting.body()).contains("\"job_id\":" + job + ",");
  }

  @Test
  void theAddressInTheClustersEnvAnswersAndAJobSubmittedOverItRunsAndShowsInSqueue() throws Exception {
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Matcher url = Pattern.compile("export SLURM_RESTD_URL=\"([^\"]+)\"")
        .matcher(java.nio.file.Files.readString(cluster.dir.resolve("env")));
    assertThat(url.find()).isTrue();
    String restd = url.group(1);
    assertThat(restd).isEqualTo(base);
    String token = token(alice);

    HttpResponse<String> ping = send("GET", "/slurm/v0.0.42/ping", token, null);
    assertThat(ping.statusCode()).as(ping.body()).isEqualTo(200);
    assertThat(ping.body()).contains("\"pinged\":\"UP\"").contains("\"responding\":true");

    // Her own directory: a slurm-N.out another user left in /tmp would fail the job's output.
    String cwd = cluster.workDir(alice).toString();
    HttpResponse<String> submitted = send("POST", "/slurm/v0.0.42/job/submit", token, """
        {"job":{"script":"#!/bin/sh\\nsleep 300\\n","name":"rest-runs","current_working_directory":"%s",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":10}}}""".formatted(cwd));
    assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(200);
    Matcher id = Pattern.compile("\"job_id\":(\\d+)").matcher(submitted.body());
    assertThat(id.find()).as(submitted.body()).isTrue();
    String job = id.group(1);

    // squeue, as alice, shows it running (the scheduler starts it at once on the idle node)
    String row = "";
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      LocalCluster.Result q = cluster.as(alice, "squeue", "-h", "-j", job, "-o", "%i %j %u %t");
      assertThat(q.exitCode()).as(q.err()).isZero();
      row = q.out().strip();
      if (row.endsWith(" R")) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(row).isEqualTo(job + " rest-runs " + alice.name() + " R");
    assertThat(send("DELETE", "/slurm/v0.0.42/job/" + job, token, null).statusCode()).isEqualTo(200);
  }
}
