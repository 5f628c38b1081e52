package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import org.corral.testkit.SpecValidator;
import tools.jackson.databind.JsonNode;

/**
 * Calls v0.0.41 operations, checks each answer against Slurm's published v0.0.41 spec, and
 * remembers which operations were called, so a test can show it called every one served.
 */
final class V41Contract {
  private static final SpecValidator SPEC41 = new SpecValidator(DataParserV41.published());
  private final String base;
  private final String token;
  private final Set<String> covered = new HashSet<>();

  V41Contract(String base, String token) {
    this.base = base;
    this.token = token;
  }

  /** Calls the operation, checks its answer against the route's v0.0.41 schema, returns it. */
  JsonNode call(String method, String path, String body) throws Exception {
    Routes.Route route = Routes.all().stream().filter(r -> r.v41() && r.method().equals(method)
        && r.pattern().matcher(path.replaceAll("\\?.*", "")).matches()).findFirst().orElseThrow();
    HttpResponse<String> r = RestCalls.send(base, method, path, token, body);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
    JsonNode doc = Json.MAPPER.readTree(r.body());
    assertThat(SPEC41.validate(doc, DataParserV41.responseSchema(route))).as(method + " " + path + ": " + r.body())
        .isEmpty();
    assertThat(doc.path("meta").path("plugin").path("data_parser").asString()).isEqualTo("data_parser/v0.0.41");
    covered.add(method + " " + route.specPath());
    return doc;
  }

  /** Every v0.0.41 operation of {@code plugin} ("openapi/slurmctld", "openapi/slurmdbd") was called. */
  void assertEveryOperationCalled(String plugin) {
    Set<String> served = new HashSet<>();
    Routes.all().stream().filter(r -> r.v41() && r.plugin().equals(plugin))
        .forEach(r -> served.add(r.method() + " " + r.specPath()));
    assertThat(covered).containsExactlyInAnyOrderElementsOf(served);
  }
}
