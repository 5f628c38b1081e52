package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.corral.common.SlurmError;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.ReservationRequest;
import org.corral.protocol.msg.Response;
import org.corral.testkit.SpecValidator;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** GET /slurm/v0.0.42/reservations and /reservation/{name}, DELETE /reservation/{name}: v0.0.42's schema and fields. */
class RestReservationsTest {
  private static RestCluster cluster;
  private static final SpecValidator SPEC = new SpecValidator(OpenApiDocument.published());

  @BeforeAll
  static void start() throws Exception {
    cluster = new RestCluster("");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static JsonNode get(String path, int status) throws Exception {
    HttpResponse<String> r = RestCalls.send(cluster.base, "GET", path, RestCalls.token(cluster.cfg, ""), null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode doc = Json.MAPPER.readTree(r.body());
    assertThat(SPEC.validate(doc, "v0.0.42_openapi_reservation_resp")).isEmpty();
    return doc;
  }

  private static void create(String name, long start, String nodes) throws Exception {
    Response made = new UnixSocketChannel(ControllerAddress.unixSocket(cluster.cfg)).call(Request.newBuilder()
        .setReservation(ReservationRequest.newBuilder().putFields("reservationname", name)
            .putFields("starttime", Long.toString(start)).putFields("duration", "30")
            .putFields("nodes", nodes).putFields("users", "root").putFields("flags", "MAINT")).build());
    assertThat(made.getErrorCode()).as(made.getErrorMessage()).isZero();
  }

  /** DELETE as {@code token}: the status and the first error's number (0: none), checked against the spec. */
  private static int[] delete(String name, String token) throws Exception {
    HttpResponse<String> r = RestCalls.send(cluster.base, "DELETE", "/slurm/v0.0.42/reservation/" + name, token, null);
    JsonNode doc = Json.MAPPER.readTree(r.body());
    assertThat(SPEC.validate(doc, "v0.0.42_openapi_resp")).isEmpty();
    JsonNode errors = doc.path("errors");
    return new int[] {r.statusCode(), errors.isEmpty() ? 0 : errors.get(0).path("error_number").asInt()};
  }

  @Test
  void deleteRemovesAReservationForAdministratorsOnly() throws Exception {
    create("gone", System.currentTimeMillis() / 1000 + 7200, "n2");
    String root = RestCalls.token(cluster.cfg, "");
    if (TestUsers.canCreate()) {
      String bob = RestCalls.token(cluster.cfg, TestUsers.ensure(TestUsers.BOB).name());
      assertThat(delete("gone", bob)).containsExactly(500, SlurmError.USER_ID_MISSING.code());
    }
    assertThat(delete("gone", root)).containsExactly(200, 0);
    assertThat(get("/slurm/v0.0.42/reservation/gone", 404).path("reservations")).isEmpty();
    assertThat(delete("gone", root)).containsExactly(500, SlurmError.RESERVATION_INVALID.code());
  }

  @Test
  void reservationsAreListedWithV0042Fields() throws Exception {
    long start = System.currentTimeMillis() / 1000 + 3600;
    create("later", start, "n1");

    JsonNode all = get("/slurm/v0.0.42/reservations/", 200);
    JsonNode r = all.path("reservations").valueStream().filter(x -> x.path("name").asString().equals("later"))
        .findFirst().orElseThrow();
    assertThat(r.path("name").asString()).isEqualTo("later");
    assertThat(r.path("node_list").asString()).isEqualTo("n1");
    assertThat(r.path("node_count").asInt()).isEqualTo(1);
    assertThat(r.path("core_count").asInt()).isEqualTo(4);
    assertThat(r.path("users").asString()).isEqualTo("root");
    assertThat(r.path("start_time").path("number").asLong()).isEqualTo(start);
    assertThat(r.path("end_time").path("number").asLong()).isEqualTo(start + 1800);
    assertThat(r.path("flags").valueStream().map(JsonNode::asString)).containsExactly("MAINT", "SPEC_NODES");
    assertThat(r.path("tres").asString()).isEqualTo("cpu=4");

    assertThat(get("/slurm/v0.0.42/reservation/later", 200).path("reservations")).hasSize(1);
    JsonNode missing = get("/slurm/v0.0.42/reservation/nope", 404);
    assertThat(missing.path("errors").get(0).path("error").asString()).isEqualTo("Requested reservation is invalid");
  }
}
