package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.runtime.Controller;
import org.corral.dbd.Dbd;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.OnBehalfRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.testkit.FreePorts;
import org.corral.testkit.SpecValidator;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The /slurmdb/v0.0.42/ endpoints in front of a real slurmdbd (SQLite) fed by a real controller:
 * every response validated against Slurm's published v0.0.42 schemas; a job submitted and
 * cancelled over REST found with its steps in /slurmdb/.../job/{id} and through sacct's filters;
 * accounts, users, associations and QOS created, changed and deleted over REST; users' rights
 * applied by slurmdbd, which honours on-behalf-of requests only from slurmrestd.
 */
class SlurmdbApiTest {
  private static Path dir;
  private static Controller ctld;
  private static Dbd dbd;
  private static Slurmrestd restd;
  private static SlurmConfig cfg;
  private static String base;
  private static String rootToken;
  private static final HttpClient HTTP = RestCalls.HTTP;
  private static final SpecValidator SPEC = new SpecValidator(OpenApiDocument.published());

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("restdb-test");
    int ctldPort = FreePorts.one();
    int dbdPort = FreePorts.one();
    Files.writeString(dir.resolve("slurm.conf"), """
        ClusterName=dbtest
        SlurmctldHost=localhost(127.0.0.1)
        SlurmctldPort=%d
        SlurmUser=root
        StateSaveLocation=%s/state
        SlurmctldPidFile=%s/slurmctld.pid
        AccountingStorageType=accounting_storage/slurmdbd
        AccountingStorageHost=127.0.0.1
        AccountingStoragePort=%d
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(ctldPort, dir, dir, dbdPort, FreePorts.one()));
    Path dbdConf = FixtureCluster.dbdConf(dir, dbdPort);
    ClusterKey.generate(dir.resolve("slurm.key"));
    cfg = SlurmConfig.load(dir.resolve("slurm.conf"));
    dbd = Dbd.start(DbdConfig.load(dbdConf), dbdPort, "dbtest", Clock.systemUTC());
    ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, Duration.ofSeconds(2));
    restd = Slurmrestd.start(cfg, RestdOptions.parse(List.of("127.0.0.1:0"), Map.of()), Clock.systemUTC());
    base = "http://127.0.0.1:" + restd.tcpAddress().getPort();
    rootToken = token("");
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {restd, ctld, dbd}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // closing anyway
      }
    }
  }

  static String token(String user) throws Exception {
    return RestCalls.token(cfg, user);
  }

  static HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    return RestCalls.send(base, method, path, token, body);
  }

  static JsonNode valid(HttpResponse<String> r, String schema) {
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
    JsonNode doc = Json.MAPPER.readTree(r.body());
    assertThat(SPEC.validate(doc, schema)).as(r.uri() + ": " + r.body()).isEmpty();
    return doc;
  }

  static JsonNode getValid(String path, String schema) throws Exception {
    HttpResponse<String> r = send("GET", path, rootToken, null);
    JsonNode doc = valid(r, schema);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(doc.path("errors").isEmpty()).as(r.body()).isTrue();
    return doc;
  }

  /** The job's accounting record, once the controller has shipped it in the state wanted. */
  static JsonNode record(int id, String state) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      JsonNode jobs = getValid("/slurmdb/v0.0.42/job/" + id, "v0.0.42_openapi_slurmdbd_jobs_resp").path("jobs");
      if (!jobs.isEmpty() && jobs.get(0).path("state").path("current").get(0).asString().equals(state)) {
        return jobs.get(0);
      }
      assertThat(System.nanoTime()).as("job " + id + " recorded " + state + ": " + jobs).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @Test
  void jobsSubmittedOverRestAreFoundInAccountingWithSacctsFilters() throws Exception {
    HttpResponse<String> sub = send("POST", "/slurm/v0.0.42/job/submit", rootToken, RestApiTest.submitBody("acctjob"));
    int id = Json.MAPPER.readTree(sub.body()).path("job_id").asInt();
    assertThat(id).as(sub.body()).isPositive();
    assertThat(send("DELETE", "/slurm/v0.0.42/job/" + id, rootToken, null).statusCode()).isEqualTo(200);
    JsonNode job = record(id, "CANCELLED");
    assertThat(job.path("name").asString()).isEqualTo("acctjob");
    assertThat(job.path("user").asString()).isEqualTo("root");
    assertThat(job.path("cluster").asString()).isEqualTo("dbtest");
    assertThat(job.path("time").path("limit").path("number").asInt()).isEqualTo(10);
    assertThat(job.path("kill_request_user").asString()).isEqualTo("root");

    JsonNode all = getValid("/slurmdb/v0.0.42/jobs/", "v0.0.42_openapi_slurmdbd_jobs_resp");
    assertThat(all.path("jobs").valueStream().map(j -> j.path("job_id").asInt())).contains(id);
    JsonNode meta = all.path("meta").path("plugin");
    assertThat(meta.path("type").asString()).isEqualTo("openapi/slurmdbd");
    String q = "/slurmdb/v0.0.42/jobs?users=root&state=CANCELLED&job_name=acctjob&partition=debug&start_time=1";
    assertThat(getValid(q, "v0.0.42_openapi_slurmdbd_jobs_resp").path("jobs").valueStream()
        .map(j -> j.path("job_id").asInt())).contains(id);
    for (String miss : List.of("state=COMPLETED", "job_name=other", "partition=nope", "end_time=1", "qos=nope")) {
      assertThat(getValid("/slurmdb/v0.0.42/jobs?" + miss, "v0.0.42_openapi_slurmdbd_jobs_resp").path("jobs")
          .valueStream().map(j -> j.path("job_id").asInt())).as(miss).doesNotContain(id);
    }
    HttpResponse<String> bad = send("GET", "/slurmdb/v0.0.42/jobs?state=NOPE", rootToken, null);
    assertThat(bad.statusCode()).isEqualTo(400);
    valid(bad, "v0.0.42_openapi_slurmdbd_jobs_resp".replace("slurmdbd_jobs_", ""));
  }

  @Test
  void associationsAndTheirEntitiesValidateAgainstTheSpec() throws Exception {
    JsonNode accounts = getValid("/slurmdb/v0.0.42/accounts", "v0.0.42_openapi_accounts_resp");
    assertThat(accounts.path("accounts").valueStream().map(a -> a.path("name").asString())).contains("root");
    getValid("/slurmdb/v0.0.42/account/root", "v0.0.42_openapi_accounts_resp");
    JsonNode assocs = getValid("/slurmdb/v0.0.42/associations/", "v0.0.42_openapi_assocs_resp");
    assertThat(assocs.path("associations")).isNotEmpty();
    JsonNode users = getValid("/slurmdb/v0.0.42/users/", "v0.0.42_openapi_users_resp");
    assertThat(users.path("users").valueStream().map(u -> u.path("name").asString())).contains("root");
    getValid("/slurmdb/v0.0.42/user/root", "v0.0.42_openapi_users_resp");
    JsonNode qos = getValid("/slurmdb/v0.0.42/qos", "v0.0.42_openapi_slurmdbd_qos_resp");
    assertThat(qos.path("qos").valueStream().map(x -> x.path("name").asString())).contains("normal");
    getValid("/slurmdb/v0.0.42/qos/normal", "v0.0.42_openapi_slurmdbd_qos_resp");
    JsonNode tres = getValid("/slurmdb/v0.0.42/tres/", "v0.0.42_openapi_tres_resp");
    assertThat(tres.path("TRES").get(0).path("type").asString()).isEqualTo("cpu");
    JsonNode clusters = getValid("/slurmdb/v0.0.42/clusters/", "v0.0.42_openapi_clusters_resp");
    assertThat(clusters.path("clusters").valueStream().map(c -> c.path("name").asString())).contains("dbtest");
    getValid("/slurmdb/v0.0.42/config", "v0.0.42_openapi_slurmdbd_config_resp");
    JsonNode ping = getValid("/slurmdb/v0.0.42/ping/", "v0.0.42_openapi_slurmdbd_ping_resp");
    assertThat(ping.path("pings").get(0).path("responding").asBoolean()).isTrue();
    HttpResponse<String> diag = send("GET", "/slurmdb/v0.0.42/diag/", rootToken, null);
    assertThat(diag.statusCode()).isEqualTo(200);
    assertThat(valid(diag, "v0.0.42_openapi_slurmdbd_stats_resp").path("statistics").path("RPCs")).isNotEmpty();
  }

  @Test
  void everyV41SlurmdbdOperationAnswersAsTheV41SpecSays() throws Exception {
    V41Contract v41 = new V41Contract(base, rootToken);
    int id = Json.MAPPER.readTree(send("POST", "/slurm/v0.0.41/job/submit", rootToken,
        RestApiTest.submitBody("acct41")).body()).path("job_id").asInt();
    send("DELETE", "/slurm/v0.0.41/job/" + id, rootToken, null);
    record(id, "CANCELLED");
    JsonNode jobs = v41.call("GET", "/slurmdb/v0.0.41/jobs/?users=root", null);
    assertThat(jobs.path("jobs").valueStream().map(j -> j.path("job_id").asInt())).contains(id);
    assertThat(v41.call("GET", "/slurmdb/v0.0.41/job/" + id, null).path("jobs").get(0).has("restart_cnt"))
        .isFalse();
    v41.call("GET", "/slurmdb/v0.0.41/diag/", null);
    v41.call("POST", "/slurmdb/v0.0.41/accounts/",
        "{\"accounts\":[{\"name\":\"chem41\",\"description\":\"chemistry\",\"organization\":\"science\"}]}");
    v41.call("GET", "/slurmdb/v0.0.41/accounts/", null);
    v41.call("GET", "/slurmdb/v0.0.41/account/chem41", null);
    v41.call("POST", "/slurmdb/v0.0.41/associations/",
        "{\"associations\":[{\"account\":\"chem41\",\"user\":\"\",\"parent_account\":\"root\"}]}");
    v41.call("GET", "/slurmdb/v0.0.41/associations/", null);
    v41.call("POST", "/slurmdb/v0.0.41/users/",
        "{\"users\":[{\"name\":\"u41\",\"default\":{\"account\":\"chem41\"}}]}");
    v41.call("GET", "/slurmdb/v0.0.41/users/", null);
    v41.call("GET", "/slurmdb/v0.0.41/user/root", null);
    v41.call("DELETE", "/slurmdb/v0.0.41/user/u41", null);
    v41.call("POST", "/slurmdb/v0.0.41/qos/", "{\"qos\":[{\"name\":\"q41\",\"description\":\"v41\"}]}");
    JsonNode qos = v41.call("GET", "/slurmdb/v0.0.41/qos/", null);
    assertThat(qos.path("qos").valueStream().map(x -> x.path("name").asString())).contains("q41");
    v41.call("GET", "/slurmdb/v0.0.41/qos/q41", null);
    v41.call("DELETE", "/slurmdb/v0.0.41/qos/q41", null);
    v41.call("DELETE", "/slurmdb/v0.0.41/account/chem41", null);
    v41.call("GET", "/slurmdb/v0.0.41/tres/", null);
    v41.call("GET", "/slurmdb/v0.0.41/clusters/", null);
    v41.call("GET", "/slurmdb/v0.0.41/config", null);
    v41.assertEveryOperationCalled("openapi/slurmdbd");
  }

  @Test
  void accountsUsersAssociationsAndQosAreCreatedChangedAndDeleted() throws Exception {
    HttpResponse<String> r = send("POST", "/slurmdb/v0.0.42/accounts/", rootToken,
        "{\"accounts\":[{\"name\":\"physics\",\"description\":\"physics dept\",\"organization\":\"science\"}]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    valid(r, "v0.0.42_openapi_resp");
    r = send("POST", "/slurmdb/v0.0.42/associations/", rootToken, """
        {"associations":[{"account":"physics","user":"","parent_account":"root"},
         {"account":"physics","user":"root","max":{"jobs":{"per":{"count":{"set":true,"number":4}}}}}]}""");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    r = send("POST", "/slurmdb/v0.0.42/qos/", rootToken,
        "{\"qos\":[{\"name\":\"fast\",\"description\":\"quick\",\"priority\":{\"set\":true,\"number\":10}}]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    JsonNode acct = getValid("/slurmdb/v0.0.42/account/physics", "v0.0.42_openapi_accounts_resp").path("accounts").get(0);
    assertThat(acct.path("description").asString()).isEqualTo("physics dept");
    JsonNode assoc = getValid("/slurmdb/v0.0.42/associations?account=physics&user=root", "v0.0.42_openapi_assocs_resp")
        .path("associations").get(0);
    assertThat(assoc.path("max").path("jobs").path("per").path("count").path("number").asInt()).isEqualTo(4);
    assertThat(assoc.path("parent_account").asString()).isEmpty();
    JsonNode fast = getValid("/slurmdb/v0.0.42/qos/fast", "v0.0.42_openapi_slurmdbd_qos_resp").path("qos").get(0);
    assertThat(fast.path("priority").path("number").asInt()).isEqualTo(10);

    r = send("POST", "/slurmdb/v0.0.42/accounts/", rootToken, "{\"accounts\":[{\"name\":\"physics\",\"description\":\"physics\"}]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    acct = getValid("/slurmdb/v0.0.42/account/physics", "v0.0.42_openapi_accounts_resp").path("accounts").get(0);
    assertThat(acct.path("description").asString()).isEqualTo("physics");
    assertThat(acct.path("organization").asString()).isEqualTo("science");

    r = send("DELETE", "/slurmdb/v0.0.42/qos/fast", rootToken, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(valid(r, "v0.0.42_openapi_slurmdbd_qos_removed_resp").path("removed_qos").get(0).asString()).isEqualTo("fast");
    assertThat(getValid("/slurmdb/v0.0.42/qos/fast", "v0.0.42_openapi_slurmdbd_qos_resp").path("qos")).isEmpty();
  }

  @Test
  void plainUsersChangeNothingAndOnlySlurmrestdActsForThem() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    String aliceToken = token(alice.name());
    HttpResponse<String> r = send("POST", "/slurmdb/v0.0.42/accounts/", aliceToken,
        "{\"accounts\":[{\"name\":\"alices\",\"description\":\"mine\",\"organization\":\"me\"}]}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
    assertThat(valid(r, "v0.0.42_openapi_resp").path("errors").get(0).path("error_number").asInt())
        .isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(getValid("/slurmdb/v0.0.42/account/alices", "v0.0.42_openapi_accounts_resp").path("accounts")).isEmpty();
    assertThat(send("DELETE", "/slurmdb/v0.0.42/account/root", aliceToken, null).statusCode()).isEqualTo(500);
    HttpResponse<String> looks = send("GET", "/slurmdb/v0.0.42/accounts", aliceToken, null);
    assertThat(looks.statusCode()).as(looks.body()).isEqualTo(200);
    assertThat(Json.MAPPER.readTree(looks.body()).path("meta").path("client").path("user").asString())
        .isEqualTo(alice.name());

    Request wrapped = Request.newBuilder().setOnBehalf(OnBehalfRequest.newBuilder().setUserName("root")
        .setRequest(Request.newBuilder().setAssocSnapshot(AssocSnapshotRequest.getDefaultInstance()))).build();
    ClusterKey key = ClusterKey.load(dir.resolve("slurm.key"));
    int port = cfg.accounting().port();
    Response asCtld = new TcpChannel("127.0.0.1", port, "slurmdbd", new Credentials(key, "slurmctld", Clock.systemUTC()),
        Duration.ofSeconds(5)).call(wrapped);
    assertThat(asCtld.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
    Response asRestd = new TcpChannel("127.0.0.1", port, "slurmdbd", new Credentials(key, "slurmrestd", Clock.systemUTC()),
        Duration.ofSeconds(5)).call(wrapped);
    assertThat(asRestd.getErrorCode()).isZero();
    Response nested = new TcpChannel("127.0.0.1", port, "slurmdbd", new Credentials(key, "slurmrestd", Clock.systemUTC()),
        Duration.ofSeconds(5)).call(Request.newBuilder().setOnBehalf(OnBehalfRequest.newBuilder().setUserName("root")
            .setRequest(wrapped)).build());
    assertThat(nested.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
  }
}
