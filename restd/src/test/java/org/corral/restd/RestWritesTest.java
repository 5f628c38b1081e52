package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import org.corral.common.SlurmError;
import org.corral.testkit.SpecValidator;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The write endpoints beyond job/submit and cancel (job update, job/allocate, node update and
 * delete) and the license and share reads, against a real controller: responses validated
 * against Slurm's v0.0.42 schemas, and who may do what as scontrol enforces it.
 */
class RestWritesTest {
  private static final SpecValidator SPEC = new SpecValidator(OpenApiDocument.published());
  private static RestCluster cluster;
  private static String root;

  @BeforeAll
  static void start() throws Exception {
    cluster = new RestCluster("Licenses=foo:2,bar");
    root = RestCalls.token(cluster.cfg, "");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    return RestCalls.send(cluster.base, method, path, token, body);
  }

  private static JsonNode valid(HttpResponse<String> r, String schema) {
    JsonNode doc = Json.MAPPER.readTree(r.body());
    assertThat(SPEC.validate(doc, schema)).as(r.body()).isEmpty();
    return doc;
  }

  private static int submit(String token, String extra) throws Exception {
    HttpResponse<String> r = send("POST", "/slurm/v0.0.42/job/submit", token, """
        {"job":{"script":"#!/bin/sh\\nsleep 100\\n","current_working_directory":"/tmp",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":10}%s}}""".formatted(extra));
    int id = Json.MAPPER.readTree(r.body()).path("job_id").asInt();
    assertThat(id).as(r.body()).isPositive();
    return id;
  }

  /** The job once the controller's scheduler has looked at it (it plans after every change). */
  private static JsonNode scheduled(int id, String state) throws Exception {
    for (int i = 0; i < 500; i++) {
      JsonNode j = job(id);
      if (j.path("job_state").get(0).asString().equals(state)
          && (!state.equals("PENDING") || !j.path("state_reason").asString().equals("None"))) {
        return j;
      }
      Thread.sleep(20);
    }
    return job(id);
  }

  private static JsonNode job(int id) throws Exception {
    return Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/job/" + id, root, null).body()).path("jobs").get(0);
  }

  private static int errorNumber(HttpResponse<String> r) {
    return Json.MAPPER.readTree(r.body()).path("errors").path(0).path("error_number").asInt();
  }

  @Test
  void aJobIsUpdatedHeldAndReleasedAsScontrolWould() throws Exception {
    int id = submit(root, ",\"hold\":true");
    HttpResponse<String> r = send("POST", "/slurm/v0.0.42/job/" + id, root, """
        {"time_limit":{"set":true,"number":20},"name":"renamed","comment":"via rest","nice":5,
         "features":"ignored"}""");
    JsonNode doc = valid(r, "v0.0.42_openapi_job_post_response");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(doc.path("results").get(0).path("error_code").asInt()).isZero();
    assertThat(doc.path("warnings").get(0).path("description").asString()).contains("features");
    JsonNode j = job(id);
    assertThat(j.path("name").asString()).isEqualTo("renamed");
    assertThat(j.path("comment").asString()).isEqualTo("via rest");
    assertThat(j.path("time_limit").path("number").asInt()).isEqualTo(20);
    assertThat(j.path("nice").asInt()).isEqualTo(5);
    assertThat(j.path("state_reason").asString()).isEqualTo("JobHeldUser");

    valid(send("POST", "/slurm/v0.0.42/job/" + id, root, "{\"hold\":false}"), "v0.0.42_openapi_job_post_response");
    assertThat(job(id).path("state_reason").asString()).isNotIn("JobHeldUser", "JobHeldAdmin");
    send("DELETE", "/slurm/v0.0.42/job/" + id, root, null);

    int later = submit(root, ",\"begin_time\":{\"set\":true,\"number\":%d}".formatted(
        System.currentTimeMillis() / 1000 + 3600));
    valid(send("POST", "/slurm/v0.0.42/job/" + later, root, "{\"job\":{\"hold\":true}}"),
        "v0.0.42_openapi_job_post_response");
    assertThat(job(later).path("priority").path("number").asLong()).isZero();
    id = later;
    HttpResponse<String> bad = send("POST", "/slurm/v0.0.42/job/" + id, root, "{\"time_limit\":");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(errorNumber(bad)).isEqualTo(SlurmError.REST_FAIL_PARSING.code());
    send("DELETE", "/slurm/v0.0.42/job/" + id, root, null);
  }

  @Test
  void onlyTheOwnerOrAnAdministratorUpdatesAJob() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    String alice = RestCalls.token(cluster.cfg, TestUsers.ensure(TestUsers.ALICE).name());
    String bob = RestCalls.token(cluster.cfg, TestUsers.ensure(TestUsers.BOB).name());
    int id = submit(alice, ",\"hold\":true,\"name\":\"alices\"");
    HttpResponse<String> refused = send("POST", "/slurm/v0.0.42/job/" + id, bob, "{\"name\":\"bobs\"}");
    JsonNode doc = valid(refused, "v0.0.42_openapi_job_post_response");
    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(doc.path("results").get(0).path("error_code").asInt()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(errorNumber(refused)).isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(job(id).path("name").asString()).isEqualTo("alices");
    // the owner may not set a priority (scontrol's rule), but may rename
    assertThat(errorNumber(send("POST", "/slurm/v0.0.42/job/" + id, alice, "{\"priority\":{\"set\":true,\"number\":5}}")))
        .isIn(SlurmError.JOB_HELD.code(), SlurmError.PRIO_RESET_FAIL.code());
    assertThat(send("POST", "/slurm/v0.0.42/job/" + id, alice, "{\"name\":\"still alices\"}").statusCode()).isEqualTo(200);
    assertThat(job(id).path("name").asString()).isEqualTo("still alices");
    send("DELETE", "/slurm/v0.0.42/job/" + id, root, null);
  }

  @Test
  void administratorsDrainResumeAndCannotDeleteConfiguredNodes() throws Exception {
    HttpResponse<String> drained = send("POST", "/slurm/v0.0.42/node/n1", root,
        "{\"state\":[\"DRAIN\"],\"reason\":\"rest maintenance\"}");
    valid(drained, "v0.0.42_openapi_resp");
    assertThat(drained.statusCode()).as(drained.body()).isEqualTo(200);
    JsonNode n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n1", root, null).body()).path("nodes").get(0);
    assertThat(n.path("state").toString()).contains("DRAIN");
    assertThat(n.path("reason").asString()).isEqualTo("rest maintenance");
    HttpResponse<String> noReason = send("POST", "/slurm/v0.0.42/node/n1", root, "{\"state\":[\"DOWN\"]}");
    assertThat(errorNumber(noReason)).isEqualTo(SlurmError.INVALID_NODE_STATE.code());
    assertThat(send("POST", "/slurm/v0.0.42/node/n1", root, "{\"state\":[\"RESUME\"]}").statusCode()).isEqualTo(200);
    n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n1", root, null).body()).path("nodes").get(0);
    assertThat(n.path("state").toString()).doesNotContain("DRAIN");
    assertThat(send("POST", "/slurm/v0.0.42/node/n1", root, "{\"state\":[\"FUTURE\"]}").statusCode()).isEqualTo(400);

    HttpResponse<String> delete = send("DELETE", "/slurm/v0.0.42/node/n2", root, null);
    valid(delete, "v0.0.42_openapi_resp");
    assertThat(errorNumber(delete)).isEqualTo(SlurmError.INVALID_NODE_STATE.code());
    assertThat(errorNumber(send("DELETE", "/slurm/v0.0.42/node/n9", root, null)))
        .isEqualTo(SlurmError.INVALID_NODE_NAME.code());
    int id = submit(root, "");
    assertThat(scheduled(id, "RUNNING").path("job_state").get(0).asString()).isEqualTo("RUNNING");
    assertThat(errorNumber(send("DELETE", "/slurm/v0.0.42/node/n1", root, null))).isEqualTo(SlurmError.NODES_BUSY.code());
    send("DELETE", "/slurm/v0.0.42/job/" + id, root, null);
  }

  @Test
  void featuresAndWeightAreUpdatedAsScontrolUpdatesThem() throws Exception {
    HttpResponse<String> r = send("POST", "/slurm/v0.0.42/node/n2", root,
        "{\"features\":[\"a\",\"b\"],\"features_act\":\"a\",\"weight\":{\"set\":true,\"number\":7}}");
    JsonNode doc = valid(r, "v0.0.42_openapi_resp");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(doc.path("warnings").isEmpty()).as(r.body()).isTrue();
    JsonNode n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n2", root, null).body()).path("nodes").get(0);
    assertThat(n.path("features").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(n.path("active_features").toString()).isEqualTo("[\"a\"]");
    assertThat(n.path("weight").asInt()).isEqualTo(7);
    HttpResponse<String> notSubset = send("POST", "/slurm/v0.0.42/node/n2", root, "{\"features\":\"x\",\"weight\":3}");
    assertThat(errorNumber(notSubset)).isEqualTo(SlurmError.ACTIVE_FEATURE_NOT_SUBSET.code());
    n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n2", root, null).body()).path("nodes").get(0);
    assertThat(n.path("weight").asInt()).isEqualTo(7); // refused whole
    assertThat(send("POST", "/slurm/v0.0.42/node/n2", root, "{\"features\":[],\"features_act\":[],\"weight\":1}")
        .statusCode()).isEqualTo(200);
    n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n2", root, null).body()).path("nodes").get(0);
    assertThat(n.path("features").isEmpty()).isTrue();
    assertThat(n.path("weight").asInt()).isEqualTo(1);
  }

  @Test
  void plainUsersCannotUpdateOrDeleteNodes() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    String alice = RestCalls.token(cluster.cfg, TestUsers.ensure(TestUsers.ALICE).name());
    HttpResponse<String> r = send("POST", "/slurm/v0.0.42/node/n1", alice, "{\"state\":[\"DRAIN\"],\"reason\":\"x\"}");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(errorNumber(r)).isEqualTo(SlurmError.USER_ID_MISSING.code());
    assertThat(errorNumber(send("DELETE", "/slurm/v0.0.42/node/n1", alice, null)))
        .isEqualTo(SlurmError.USER_ID_MISSING.code());
    JsonNode n = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/node/n1", root, null).body()).path("nodes").get(0);
    assertThat(n.path("state").toString()).doesNotContain("DRAIN");
  }

  @Test
  void anAllocationRunsWithoutAScriptUntilCancelled() throws Exception {
    HttpResponse<String> r = send("POST", "/slurm/v0.0.42/job/allocate", root, """
        {"job":{"name":"alloc","current_working_directory":"/tmp","tasks":1,"time_limit":{"set":true,"number":5},
         "environment":["PATH=/bin"]}}""");
    JsonNode doc = valid(r, "v0.0.42_openapi_job_alloc_resp");
    int id = doc.path("job_id").asInt();
    assertThat(id).as(r.body()).isPositive();
    JsonNode j = scheduled(id, "RUNNING");
    assertThat(j.path("job_state").get(0).asString()).isEqualTo("RUNNING");
    assertThat(j.path("batch_flag").asBoolean()).isFalse();
    assertThat(j.path("name").asString()).isEqualTo("alloc");
    send("DELETE", "/slurm/v0.0.42/job/" + id, root, null);
    assertThat(scheduled(id, "CANCELLED").path("job_state").get(0).asString()).isEqualTo("CANCELLED");
  }

  @Test
  void licensesAreCountedAndShown() throws Exception {
    JsonNode lic = valid(send("GET", "/slurm/v0.0.42/licenses", root, null), "v0.0.42_openapi_licenses_resp");
    assertThat(lic.path("licenses").get(0).path("LicenseName").asString()).isEqualTo("bar");
    assertThat(lic.path("licenses").get(1).path("Total").asInt()).isEqualTo(2);
    int holder = submit(root, ",\"licenses\":\"foo:2\",\"cpus_per_task\":1");
    assertThat(scheduled(holder, "RUNNING").path("licenses").asString()).isEqualTo("foo:2");
    int waiter = submit(root, ",\"licenses\":\"foo:1\",\"cpus_per_task\":1");
    assertThat(scheduled(waiter, "PENDING").path("state_reason").asString()).isEqualTo("Licenses");
    lic = valid(send("GET", "/slurm/v0.0.42/licenses/", root, null), "v0.0.42_openapi_licenses_resp");
    assertThat(lic.path("licenses").get(1).path("Used").asInt()).isEqualTo(2);
    assertThat(lic.path("licenses").get(1).path("Free").asInt()).isZero();
    HttpResponse<String> tooMany = send("POST", "/slurm/v0.0.42/job/submit", root, """
        {"job":{"script":"#!/bin/sh\\ntrue\\n","current_working_directory":"/tmp","licenses":"foo:3"}}""");
    assertThat(errorNumber(tooMany)).isEqualTo(SlurmError.INVALID_LICENSES.code());
    send("DELETE", "/slurm/v0.0.42/job/" + holder, root, null);
    send("DELETE", "/slurm/v0.0.42/job/" + waiter, root, null);
  }

  @Test
  void sharesValidate() throws Exception {
    JsonNode doc = valid(send("GET", "/slurm/v0.0.42/shares?users=root", root, null), "v0.0.42_openapi_shares_resp");
    assertThat(doc.path("shares").path("shares").isArray()).isTrue();
  }
}
