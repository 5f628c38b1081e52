package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import org.corral.common.Hostlist;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.ReservationRequest;
import org.corral.protocol.msg.Response;
import tools.jackson.databind.JsonNode;

/**
 * Drives a fresh cluster of fixtures/slurm.conf into the states Slurm-web's crawler records
 * (accounts and QOS; drained, draining, down, allocated, mixed and idle nodes; running, pending,
 * completed, failed and cancelled jobs, an array; a reservation) and makes the requests it records
 * (the slurm/slurmdb reads in each state, unknown job/node, unknown URLs, missing/invalid/expired
 * tokens), each under v0.0.42 and, for reads v0.0.41 serves, v0.0.41 too. Every exchange goes to
 * the sink in order: {@link FixtureRecorder} stores them, {@link RecordedFixturesTest} compares
 * them with the stored ones. Waits for states poll (the requests polling are not recorded).
 */
final class FixtureScenario {
  /** Where the exchanges go. */
  @FunctionalInterface
  interface Sink {
    void accept(FixtureExchange e) throws Exception;
  }

  private static final String SLURM = "/slurm/v0.0.42/";
  private static final String SLURMDB = "/slurmdb/v0.0.42/";
  private static final long LATER = 3600; // begin times in the future keep jobs pending
  /** The state each job settles in before the reads. */
  private static final Map<String, String> SETTLED = settled();

  private final String base;
  private final SlurmConfig cfg;
  private final Sink sink;
  private final Map<String, String> tokens;
  /** The jobs submitted, by name, in submission order. */
  private final Map<String, Integer> jobs = new LinkedHashMap<>();

  FixtureScenario(String base, SlurmConfig cfg, Sink sink) throws Exception {
    this.base = base;
    this.cfg = cfg;
    this.sink = sink;
    this.tokens = Map.of("root", RestCalls.token(cfg, ""), "invalid", "fail", "expired", expiredToken(cfg));
  }

  /** The whole scenario; the jobs it leaves running are cancelled at the end, whatever happened. */
  void run() throws Exception {
    try {
      steps();
    } finally {
      try {
        cancelRunning();
      } finally {
        removeOutputs();
      }
    }
  }

  /**
   * Deletes the output files its jobs wrote in /tmp (slurm-ID.out, slurm-ID_TASK.out): left
   * there, root's files would fail a later job of another user with the same id there.
   */
  private void removeOutputs() throws java.io.IOException {
    java.nio.file.Path tmp = java.nio.file.Path.of("/tmp");
    for (int id : jobs.values()) {
      Files.deleteIfExists(tmp.resolve("slurm-" + id + ".out"));
      try (var tasks = Files.newDirectoryStream(tmp, "slurm-" + id + "_*.out")) {
        for (java.nio.file.Path task : tasks) {
          Files.deleteIfExists(task);
        }
      }
    }
  }

  private void steps() throws Exception {
    nodesRegistered();
    accounting();
    nodeState("slurm-node-drain-update", "n4", "DRAIN", "ECC memory error");
    nodeState("slurm-node-down-update", "n5", "DOWN", "CPU dead");
    reservation();
    submitJobs();
    settle();
    reads();
    nodeState("slurm-node-draining-update", "n1", "DRAIN", "maintenance");
    read("slurm-node-draining", SLURM + "node/n1"); // drained while its job runs on
    errors();
  }

  /** One job per state, by name (in submission order: ids follow it); the cancelled one cancelled. */
  private void submitJobs() throws Exception {
    String later = ",\"begin_time\":{\"set\":true,\"number\":" + (System.currentTimeMillis() / 1000 + LATER) + "}";
    jobs.put("allocated", submit("allocated", "sleep 600", 4, "")); // all of n1
    jobs.put("running", submit("running", "sleep 600", 1, "")); // n2, then mixed
    jobs.put("completed", submit("completed", "true", 1, ""));
    jobs.put("failed", submit("failed", "exit 1", 1, ""));
    jobs.put("pending", submit("pending", "true", 1, later));
    jobs.put("cancelled", submit("cancelled", "true", 1, later));
    jobs.put("array", submit("array", "true", 1, later + ",\"array\":\"0-2\""));
    send("slurm-job-cancel", "DELETE", SLURM + "job/" + jobs.get("cancelled"), null);
  }

  /** Until every job and node is in its state, in the controller and (jobs, batch steps) in slurmdbd. */
  private void settle() throws Exception {
    for (Map.Entry<String, String> j : SETTLED.entrySet()) {
      await(SLURM + "job/" + jobs.get(j.getKey()), "/jobs/0/job_state/0", j.getValue());
    }
    for (String[] n : new String[][] {{"n1", "ALLOCATED"}, {"n2", "MIXED"}, {"n3", "IDLE"}}) {
      await(SLURM + "node/" + n[0], "/nodes/0/state", "[\"" + n[1] + "\"]");
    }
    // slurmdbd hears of jobs and their batch steps after the controller
    for (Map.Entry<String, String> j : SETTLED.entrySet()) {
      String path = SLURMDB + "job/" + jobs.get(j.getKey());
      if (!j.getValue().equals("PENDING") && !j.getValue().equals("CANCELLED")) {
        await(path, "/jobs/0/steps/0/state/0", j.getValue());
      }
      await(path, "/jobs/0/state/current/0", j.getValue());
    }
  }

  /** What Slurm-web reads, in the states reached. */
  private void reads() throws Exception {
    read("slurm-ping", SLURM + "ping/");
    read("slurm-diag", SLURM + "diag/");
    read("slurm-jobs", SLURM + "jobs/");
    read("slurm-jobs-state", SLURM + "jobs/state/");
    for (Map.Entry<String, Integer> j : jobs.entrySet()) {
      read("slurm-job-" + j.getKey(), SLURM + "job/" + j.getValue());
      read("slurmdb-job-" + j.getKey(), SLURMDB + "job/" + j.getValue());
    }
    int unknown = jobs.get("array") * 2 + 100;
    read("slurm-job-unfound", SLURM + "job/" + unknown);
    read("slurmdb-job-unfound", SLURMDB + "job/" + unknown);
    read("slurmdb-jobs", SLURMDB + "jobs/");
    read("slurm-nodes", SLURM + "nodes/");
    String[][] nodes = {{"allocated", "n1"}, {"mixed", "n2"}, {"idle", "n3"}, {"drain", "n4"}, {"down", "n5"},
        {"unfound", "unexisting-node"}};
    for (String[] n : nodes) {
      read("slurm-node-" + n[0], SLURM + "node/" + n[1]);
    }
    read("slurm-partitions", SLURM + "partitions/");
    read("slurm-partition-normal", SLURM + "partition/normal");
    read("slurm-reservations", SLURM + "reservations/");
    read("slurm-reservation-training", SLURM + "reservation/training");
    read("slurm-licenses", SLURM + "licenses/");
    read("slurm-shares", SLURM + "shares");
    read("slurm-qos", SLURMDB + "qos/");
    read("slurm-accounts", SLURMDB + "accounts/");
    read("slurmdb-account-physics", SLURMDB + "account/physics");
    read("slurmdb-account-physics-with-assocs", SLURMDB + "account/physics?with_assocs&with_coords");
    read("slurmdb-associations", SLURMDB + "associations/");
    read("slurmdb-users", SLURMDB + "users/");
    read("slurmdb-users-with-assocs", SLURMDB + "users/?with_assocs");
    read("slurmdb-tres", SLURMDB + "tres/");
    read("slurmdb-clusters", SLURMDB + "clusters/");
    read("slurmdb-ping", SLURMDB + "ping/");
    read("slurmdb-diag", SLURMDB + "diag/");
  }

  /**
   * Cancels the jobs left running and waits until their nodes have ended them (not recorded):
   * batch jobs outlive their slurmd, so stopping the cluster alone would leave them behind.
   */
  private void cancelRunning() throws Exception {
    for (Map.Entry<String, String> j : SETTLED.entrySet()) {
      Integer id = jobs.get(j.getKey());
      if (id != null && j.getValue().equals("RUNNING")) {
        RestCalls.send(base, "DELETE", SLURM + "job/" + id, tokens.get("root"), null);
        await(SLURM + "job/" + id, "/jobs/0/job_state", "[\"CANCELLED\"]");
      }
    }
  }

  /** QOS, two accounts and root's associations with them, created over REST as an administrator would. */
  private void accounting() throws Exception {
    send("slurmdb-qos-add", "POST", SLURMDB + "qos/", """
        {"qos":[{"name":"high","description":"urgent work","priority":{"set":true,"number":100}},
         {"name":"low","description":"scavenger","priority":{"set":true,"number":10}}]}""");
    send("slurmdb-accounts-add", "POST", SLURMDB + "accounts/", """
        {"accounts":[{"name":"physics","description":"physics department","organization":"science"},
         {"name":"biology","description":"biology department","organization":"science"}]}""");
    send("slurmdb-associations-add-accounts", "POST", SLURMDB + "associations/", """
        {"associations":[{"account":"physics","cluster":"fixtures"},{"account":"biology","cluster":"fixtures"}]}""");
    send("slurmdb-associations-add-users", "POST", SLURMDB + "associations/", """
        {"associations":[{"account":"physics","cluster":"fixtures","user":"root"},
         {"account":"biology","cluster":"fixtures","user":"root"}]}""");
  }

  /** A reservation five days ahead (no REST operation creates one in v0.0.42: scontrol's RPC). */
  private void reservation() throws Exception {
    long start = System.currentTimeMillis() / 1000 + 5 * 86400;
    Response made = new UnixSocketChannel(ControllerAddress.unixSocket(cfg)).call(Request.newBuilder()
        .setReservation(ReservationRequest.newBuilder().putFields("reservationname", "training")
            .putFields("starttime", Long.toString(start)).putFields("duration", "1440")
            .putFields("nodes", "n3").putFields("users", "root").putFields("flags", "MAINT")).build());
    assertThat(made.getErrorCode()).as(made.getErrorMessage()).isZero();
  }

  /** The answers clients get wrong most: unknown URLs and each kind of bad credentials. */
  private void errors() throws Exception {
    send("slurm-not-found", "GET", SLURM + "not-found", null);
    send("slurmdb-not-found", "GET", SLURMDB + "not-found", null);
    send("slurm-unknown-version", "GET", "/slurm/v0.0.30/ping/", null);
    exchange("slurm-jwt-missing-headers", "v0.0.42", "GET", SLURM + "jobs/", null, "none");
    exchange("slurm-jwt-invalid-token", "v0.0.42", "GET", SLURM + "jobs/", null, "invalid");
    exchange("slurm-jwt-expired-token", "v0.0.42", "GET", SLURM + "jobs/", null, "expired");
  }

  /** As an administrator sets a node's state: POST node/{name}. */
  private void nodeState(String name, String node, String state, String reason) throws Exception {
    send(name, "POST", SLURM + "node/" + node, "{\"state\":[\"" + state + "\"],\"reason\":\"" + reason + "\"}");
  }

  private int submit(String name, String script, int tasks, String extra) throws Exception {
    JsonNode r = send("slurm-job-submit-" + name, "POST", SLURM + "job/submit", """
        {"job":{"script":"#!/bin/sh\\n%s\\n","name":"%s","current_working_directory":"/tmp",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":30},"tasks":%d%s}}"""
        .formatted(script, name, tasks, extra));
    assertThat(r.path("job_id").asInt()).as(r.toString()).isPositive();
    return r.path("job_id").asInt();
  }

  /** A read as root under v0.0.42, then under v0.0.41 when that version serves it. */
  private void read(String name, String path) throws Exception {
    send(name, "GET", path, null);
    String v41 = path.replace("/v0.0.42/", "/" + DataParserV41.VERSION + "/");
    if (FixtureExchange.route("GET", v41).isPresent()) {
      exchange(name, DataParserV41.VERSION, "GET", v41, null, "root");
    }
  }

  private JsonNode send(String name, String method, String path, String body) throws Exception {
    return exchange(name, SlurmApi.VERSION, method, path, body, "root");
  }

  private JsonNode exchange(String name, String version, String method, String path, String body, String auth)
      throws Exception {
    HttpResponse<String> r = RestCalls.send(base, method, path, tokens.get(auth), body);
    String type = r.headers().firstValue("content-type").orElse("");
    sink.accept(new FixtureExchange(name, version, method, path, body == null ? null : Json.MAPPER.readTree(body),
        auth, r.statusCode(), type, r.body()));
    return type.startsWith("application/json") ? Json.MAPPER.readTree(r.body()) : Json.MAPPER.createObjectNode();
  }

  /**
   * Until every node has registered (IDLE): with ReturnToService=2 a registration undoes a DOWN
   * set before it, as in Slurm, and the nodes' daemons start in a JVM of their own, slowly on a
   * busy machine.
   */
  private void nodesRegistered() throws Exception {
    for (var node : cfg.nodes()) {
      for (String name : Hostlist.expand(node.name())) {
        await(SLURM + "node/" + name, "/nodes/0/state", "[\"IDLE\"]");
      }
    }
  }

  /** Polls GET path until the value at {@code pointer} reads {@code want} (a state reached). */
  private void await(String path, String pointer, String want) throws Exception {
    String seen = "";
    for (int i = 0; i < 600; i++) {
      HttpResponse<String> r = RestCalls.send(base, "GET", path, tokens.get("root"), null);
      JsonNode v = Json.MAPPER.readTree(r.body()).at(pointer);
      seen = v.isString() ? v.asString() : v.toString();
      if (seen.equals(want)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(path + " never reached " + want + " (last: " + seen + ")");
  }

  private static Map<String, String> settled() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("allocated", "RUNNING");
    m.put("running", "RUNNING");
    m.put("completed", "COMPLETED");
    m.put("failed", "FAILED");
    m.put("pending", "PENDING");
    m.put("cancelled", "CANCELLED");
    m.put("array", "PENDING");
    return m;
  }

  /** A token signed with the cluster's jwt key that expired long ago (a fixed time: the error names it). */
  private static String expiredToken(SlurmConfig cfg) throws Exception {
    byte[] key = Files.readAllBytes(JwtVerifier.keyFile(cfg.get("AuthAltParameters").orElse(null),
        cfg.stateSaveLocation()));
    long expired = 1_577_836_800_000L; // 2020-01-01T00:00:00Z
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().claim("sun", "root")
        .issueTime(new Date(expired - 3_600_000)).expirationTime(new Date(expired)).build());
    jwt.sign(new MACSigner(key));
    return jwt.serialize();
  }
}
