package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.Credentials;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.OnBehalfRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TokenRequest;
import org.corral.testkit.SpecValidator;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * slurmrestd in front of a real controller (in this JVM, over its real TCP and Unix-socket
 * transport; one node played by the test): responses validated against Slurm's published
 * v0.0.42 schemas, the envelope, authentication failures, and users' permissions carried
 * through to the controller.
 */
class RestApiTest {
  private static RestCluster cluster;
  private static Path dir;
  private static SlurmConfig cfg;
  private static String base;
  private static String rootToken;
  private static final HttpClient HTTP = RestCalls.HTTP;
  private static final SpecValidator SPEC = new SpecValidator(OpenApiDocument.published());

  @BeforeAll
  static void start() throws Exception {
    cluster = new RestCluster("");
    dir = cluster.dir;
    cfg = cluster.cfg;
    base = cluster.base;
    rootToken = token("");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  static String token(String user) throws Exception {
    return RestCalls.token(cfg, user);
  }

  static HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    return RestCalls.send(base, method, path, token, body);
  }

  static JsonNode json(HttpResponse<String> r) {
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
    return Json.MAPPER.readTree(r.body());
  }

  /** GET path as root; checks the status and the spec's schema, returns the document. */
  static JsonNode getValid(String path, String schema) throws Exception {
    HttpResponse<String> r = send("GET", path, rootToken, null);
    JsonNode doc = json(r);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(SPEC.validate(doc, schema)).as(path).isEmpty();
    assertThat(doc.path("errors").isEmpty()).as(r.body()).isTrue();
    return doc;
  }

  static String submitBody(String name) {
    return """
        {"job":{"script":"#!/bin/sh\\nsleep 100\\n","name":"%s","current_working_directory":"/tmp",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":10},"tasks":1}}""".formatted(name);
  }

  @Test
  void everyImplementedReadValidatesAgainstTheSpec() throws Exception {
    HttpResponse<String> submitted = send("POST", "/slurm/v0.0.42/job/submit", rootToken, submitBody("contract"));
    JsonNode sub = json(submitted);
    assertThat(SPEC.validate(sub, "v0.0.42_openapi_job_submit_response")).isEmpty();
    int id = sub.path("job_id").asInt();
    assertThat(id).isPositive();

    getValid("/slurm/v0.0.42/ping", "v0.0.42_openapi_ping_array_resp");
    JsonNode diag = getValid("/slurm/v0.0.42/diag/", "v0.0.42_openapi_diag_resp");
    assertThat(diag.path("statistics").path("jobs_submitted").asLong()).isPositive();
    JsonNode jobs = getValid("/slurm/v0.0.42/jobs", "v0.0.42_openapi_job_info_resp");
    assertThat(jobs.path("jobs").valueStream().map(j -> j.path("job_id").asInt())).contains(id);
    JsonNode job = getValid("/slurm/v0.0.42/job/" + id, "v0.0.42_openapi_job_info_resp").path("jobs").get(0);
    assertThat(job.path("name").asString()).isEqualTo("contract");
    assertThat(job.path("user_name").asString()).isEqualTo("root");
    assertThat(job.path("time_limit").path("number").asInt()).isEqualTo(10);
    assertThat(job.path("job_state").isArray()).isTrue();
    getValid("/slurm/v0.0.42/jobs/state?job_id=" + id, "v0.0.42_openapi_job_info_resp");
    JsonNode nodes = getValid("/slurm/v0.0.42/nodes", "v0.0.42_openapi_nodes_resp");
    assertThat(nodes.path("nodes").get(0).path("name").asString()).isEqualTo("n1");
    getValid("/slurm/v0.0.42/node/n1", "v0.0.42_openapi_nodes_resp");
    JsonNode parts = getValid("/slurm/v0.0.42/partitions/", "v0.0.42_openapi_partition_resp");
    JsonNode maxTime = parts.path("partitions").get(0).path("maximums").path("time");
    assertThat(maxTime.path("infinite").asBoolean()).as(maxTime.toString()).isTrue();
    assertThat(maxTime.path("number").asLong()).isZero();
    getValid("/slurm/v0.0.42/partition/debug", "v0.0.42_openapi_partition_resp");

    HttpResponse<String> cancelled = send("DELETE", "/slurm/v0.0.42/job/" + id, rootToken, null);
    assertThat(cancelled.statusCode()).isEqualTo(200);
    assertThat(SPEC.validate(json(cancelled), "v0.0.42_openapi_kill_job_resp")).isEmpty();
    JsonNode after = getValid("/slurm/v0.0.42/job/" + id, "v0.0.42_openapi_job_info_resp");
    assertThat(after.path("jobs").get(0).path("job_state").get(0).asString()).isEqualTo("CANCELLED");
  }

  @Test
  void everyResponseCarriesSlurmsEnvelope() throws Exception {
    JsonNode doc = getValid("/slurm/v0.0.42/ping/", "v0.0.42_openapi_ping_array_resp");
    JsonNode meta = doc.path("meta");
    assertThat(meta.path("plugin").path("data_parser").asString()).isEqualTo("data_parser/v0.0.42");
    assertThat(meta.path("plugin").path("type").asString()).isEqualTo("openapi/slurmctld");
    assertThat(meta.path("client").path("user").asString()).isEqualTo("root");
    assertThat(meta.path("slurm").path("cluster").asString()).isEqualTo("resttest");
    assertThat(meta.path("slurm").path("version").path("major").isString()).isTrue();
    assertThat(doc.path("errors").isArray()).isTrue();
    assertThat(doc.path("warnings").isArray()).isTrue();
  }

  @Test
  void theServedDocumentIsTheImplementedSubsetOfTheSpec() throws Exception {
    for (String path : List.of("/openapi/v3", "/openapi.json")) {
      HttpResponse<String> r = send("GET", path, null, null);
      assertThat(r.statusCode()).isEqualTo(200);
      JsonNode doc = json(r);
      assertThat(doc.path("openapi").asString()).startsWith("3.");
      Set<String> served = Set.copyOf(doc.path("paths").propertyNames());
      assertThat(served).containsExactlyInAnyOrderElementsOf(
          Routes.all().stream().map(Routes.Route::specPath).distinct().toList());
      // every $ref resolves within the served document
      SpecValidator own = new SpecValidator(doc);
      for (String schema : doc.path("components").path("schemas").propertyNames()) {
        assertThat(own.validate(Json.MAPPER.createObjectNode(), schema)).noneMatch(p -> p.contains("unresolved"));
      }
      assertThat(doc.path("paths").has("/slurmdb/v0.0.42/wckeys/")).isFalse();
    }
  }

  @Test
  void unknownPathsAndVersionsAre404AndUnknownJobsSlurms2017() throws Exception {
    for (String path : List.of("/slurm/v0.0.40/jobs", "/slurm/v0.0.42/nothing", "/slurmdb/v0.0.40/jobs",
        "/slurmdb/v0.0.42/nothing", "/")) {
      HttpResponse<String> r = send("GET", path, rootToken, null);
      assertThat(r.statusCode()).as(path).isEqualTo(404);
      assertThat(r.headers().firstValue("content-type")).hasValue("text/plain"); // as Slurm's, not JSON
      assertThat(r.body()).isEqualTo("Unable find requested URL. Please view /openapi/v3 for API reference.\n");
    }
    HttpResponse<String> r = send("GET", "/slurm/v0.0.42/job/999999", rootToken, null);
    JsonNode err = json(r).path("errors").get(0);
    assertThat(err.path("error_number").asInt()).isEqualTo(2017);
    assertThat(err.path("error").asString()).isEqualTo("Invalid job id specified");
    assertThat(err.path("description").asString()).isEqualTo("Unable to query JobId=999999");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(send("GET", "/slurm/v0.0.42/reconfigure", rootToken, null).statusCode()).isEqualTo(501);
  }

  @Test
  void requestsWithoutAValidTokenAre401() throws Exception {
    String good = rootToken;
    String[] parts = good.split("\\.");
    String tampered = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "fQ." + parts[2];
    for (String none : new String[] {null, ""}) { // no credentials: refused before any operation, in plain text
      HttpResponse<String> r = send("GET", "/slurm/v0.0.42/jobs", none, null);
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(r.headers().firstValue("content-type")).hasValue("text/plain");
      assertThat(r.body()).isEqualTo("Authentication failure\n");
    }
    for (String bad : new String[] {"not-a-jwt", tampered, parts[0] + "." + parts[1] + "."}) {
      HttpResponse<String> r = send("GET", "/slurm/v0.0.42/jobs", bad, null);
      assertThat(r.statusCode()).as(bad).isEqualTo(401);
      assertThat(json(r).path("errors").get(0).path("error").asString()).isEqualTo("Authentication failure");
    }
    HttpResponse<String> bearer = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/slurm/v0.0.42/ping"))
        .header("Authorization", "Bearer " + good).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(bearer.statusCode()).isEqualTo(200);
    HttpResponse<String> mixedCase = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/slurm/v0.0.42/ping"))
        .header("x-slurm-user-token", good).header("X-Slurm-User-Name", "root").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(mixedCase.statusCode()).isEqualTo(200);
  }

  @Test
  void aUserCannotCancelAnotherUsersJobThroughRest() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    String aliceToken = token(alice.name());
    String bobToken = token(bob.name());
    JsonNode sub = json(send("POST", "/slurm/v0.0.42/job/submit", aliceToken, submitBody("alices")));
    int id = sub.path("job_id").asInt();
    assertThat(id).as(sub.toString()).isPositive();
    JsonNode job = json(send("GET", "/slurm/v0.0.42/job/" + id, bobToken, null)).path("jobs").get(0);
    assertThat(job.path("user_name").asString()).isEqualTo(alice.name());
    assertThat(job.path("user_id").asInt()).isEqualTo(alice.uid());

    HttpResponse<String> refused = send("DELETE", "/slurm/v0.0.42/job/" + id, bobToken, null);
    JsonNode refusal = json(refused);
    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(refusal.path("errors").get(0).path("error_number").asInt()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(refusal.path("status").get(0).path("error").path("code").asInt()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(json(send("GET", "/slurm/v0.0.42/job/" + id, aliceToken, null)).path("jobs").get(0)
        .path("job_state").get(0).asString()).isNotEqualTo("CANCELLED");

    // a token names its own user only: bob's token with alice's name is refused
    HttpResponse<String> impersonation = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/slurm/v0.0.42/job/" + id))
        .DELETE().header("X-SLURM-USER-TOKEN", bobToken).header("X-SLURM-USER-NAME", alice.name()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(impersonation.statusCode()).isEqualTo(401);

    assertThat(send("DELETE", "/slurm/v0.0.42/job/" + id, aliceToken, null).statusCode()).isEqualTo(200);
    assertThat(json(send("GET", "/slurm/v0.0.42/job/" + id, aliceToken, null)).path("jobs").get(0)
        .path("job_state").get(0).asString()).isEqualTo("CANCELLED");
  }

  @Test
  void onlySlurmrestdMayActForAUserAndOnlyRootMintsOthersTokens() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    Request onBehalf = Request.newBuilder().setOnBehalf(OnBehalfRequest.newBuilder().setUserName(alice.name())
        .setRequest(Request.newBuilder().setPing(PingRequest.getDefaultInstance()))).build();
    ClusterKey key = ClusterKey.load(dir.resolve("slurm.key"));
    int port = cfg.slurmctldPort();
    Response asNode = new TcpChannel("127.0.0.1", port, "slurmctld", new Credentials(key, "n1", Clock.systemUTC()),
        Duration.ofSeconds(5)).call(onBehalf);
    assertThat(asNode.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    Response local = new UnixSocketChannel(ControllerAddress.unixSocket(cfg)).call(onBehalf);
    assertThat(local.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    TcpChannel asRestd = new TcpChannel("127.0.0.1", port, "slurmctld", new Credentials(key, "slurmrestd", Clock.systemUTC()),
        Duration.ofSeconds(5));
    assertThat(asRestd.call(onBehalf).getErrorCode()).isZero();

    Response mintForRoot = asRestd.call(Request.newBuilder().setOnBehalf(OnBehalfRequest.newBuilder()
        .setUserName(alice.name()).setRequest(Request.newBuilder().setToken(TokenRequest.newBuilder()
            .setUserName("root")))).build());
    assertThat(mintForRoot.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    Response mintOwn = asRestd.call(Request.newBuilder().setOnBehalf(OnBehalfRequest.newBuilder()
        .setUserName(alice.name()).setRequest(Request.newBuilder().setToken(TokenRequest.getDefaultInstance()))).build());
    assertThat(mintOwn.getErrorCode()).isZero();
    assertThat(mintOwn.getToken().getUserName()).isEqualTo(alice.name());
    Path keyFile = dir.resolve("state").resolve("jwt_hs256.key");
    assertThat(Files.getPosixFilePermissions(keyFile)).containsExactlyInAnyOrder(
        java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
  }

  @Test
  void everyV41SlurmctldOperationAnswersAsTheV41SpecSays() throws Exception {
    V41Contract v41 = new V41Contract(base, rootToken);
    JsonNode sub = v41.call("POST", "/slurm/v0.0.41/job/submit", submitBody("v41"));
    int id = sub.path("job_id").asInt();
    assertThat(id).as(sub.toString()).isPositive();
    assertThat(sub.path("result").path("job_id").asInt()).isEqualTo(id);
    JsonNode alloc = v41.call("POST", "/slurm/v0.0.41/job/allocate",
        "{\"job\":{\"name\":\"v41alloc\",\"current_working_directory\":\"/tmp\",\"tasks\":1,"
            + "\"time_limit\":{\"set\":true,\"number\":5}}}");
    int allocId = alloc.path("job_id").asInt();

    v41.call("GET", "/slurm/v0.0.41/ping/", null);
    v41.call("GET", "/slurm/v0.0.41/diag/", null);
    JsonNode jobs = v41.call("GET", "/slurm/v0.0.41/jobs/", null);
    assertThat(jobs.path("jobs").valueStream().map(j -> j.path("job_id").asInt())).contains(id);
    v41.call("GET", "/slurm/v0.0.41/jobs/state/?job_id=" + id, null);
    JsonNode job41 = v41.call("GET", "/slurm/v0.0.41/job/" + id, null).path("jobs").get(0);
    JsonNode job42 = Json.MAPPER.readTree(send("GET", "/slurm/v0.0.42/job/" + id, rootToken, null).body()).path("jobs").get(0);
    assertThat(job41.path("name").asString()).isEqualTo("v41");
    assertThat(job41.has("minimum_switches")).isEqualTo(job42.has("required_switches"));
    assertThat(job41.has("required_switches")).isFalse();
    assertThat(job41.path("time_limit")).isEqualTo(job42.path("time_limit"));
    JsonNode updated = v41.call("POST", "/slurm/v0.0.41/job/" + id, "{\"comment\":\"from v41\"}");
    assertThat(updated.path("job_id").asString()).isEqualTo(String.valueOf(id));
    v41.call("GET", "/slurm/v0.0.41/nodes/", null);
    v41.call("GET", "/slurm/v0.0.41/node/n1", null);
    v41.call("POST", "/slurm/v0.0.41/node/n1", "{\"comment\":\"v41\"}");
    v41.call("DELETE", "/slurm/v0.0.41/node/n2", null);
    v41.call("GET", "/slurm/v0.0.41/partitions/", null);
    v41.call("GET", "/slurm/v0.0.41/partition/debug", null);
    v41.call("GET", "/slurm/v0.0.41/reservations/", null);
    v41.call("GET", "/slurm/v0.0.41/reservation/none", null);
    v41.call("GET", "/slurm/v0.0.41/licenses/", null);
    JsonNode shares = v41.call("GET", "/slurm/v0.0.41/shares", null);
    shares.path("shares").path("shares").forEach(s -> assertThat(s.path("effective_usage").isNumber()).isTrue());
    v41.call("GET", "/slurm/v0.0.41/reconfigure/", null);
    v41.call("DELETE", "/slurm/v0.0.41/job/" + id, null);
    v41.call("DELETE", "/slurm/v0.0.41/job/" + allocId, null);

    v41.assertEveryOperationCalled("openapi/slurmctld");
  }

  @Test
  void otherVersionsAndPathsV41DoesNotDefineAre404() throws Exception {
    for (String path : List.of("/slurm/v0.0.40/jobs", "/slurm/v0.0.43/jobs", "/slurmdb/v0.0.40/jobs",
        "/slurmdb/v0.0.43/jobs", "/slurm/v0.0.40/ping", "/slurm/v0.0.43/ping", "/slurmdb/v0.0.41/ping")) {
      HttpResponse<String> r = send("GET", path, rootToken, null);
      assertThat(r.statusCode()).as(path).isEqualTo(404);
      assertThat(r.headers().firstValue("content-type")).hasValue("text/plain");
      assertThat(r.body()).isEqualTo(RestServer.NOT_FOUND + "\n");
    }
    // v0.0.41 has no DELETE reservation (v0.0.42 added it): the path exists, the method does not
    assertThat(send("DELETE", "/slurm/v0.0.41/reservation/none", rootToken, null).statusCode()).isEqualTo(405);
  }

  @Test
  void theServedDocumentDescribesBothVersions() throws Exception {
    JsonNode doc = Json.MAPPER.readTree(send("GET", "/openapi/v3", null, null).body());
    assertThat(doc.path("paths").has("/slurm/v0.0.41/jobs/")).isTrue();
    assertThat(doc.path("paths").has("/slurm/v0.0.42/jobs/")).isTrue();
    assertThat(doc.path("paths").has("/slurmdb/v0.0.41/ping")).isFalse();
    assertThat(doc.path("paths").path("/slurm/v0.0.41/reservation/{reservation_name}").has("delete")).isFalse();
    assertThat(doc.path("components").path("schemas").has("v0.0.41_job_info")).isTrue();
    SpecValidator own = new SpecValidator(doc);
    for (String schema : doc.path("components").path("schemas").propertyNames()) {
      assertThat(own.validate(Json.MAPPER.createObjectNode(), schema)).noneMatch(p -> p.contains("unresolved"));
    }
  }
}
