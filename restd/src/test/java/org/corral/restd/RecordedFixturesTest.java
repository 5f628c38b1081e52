package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.corral.testkit.SpecValidator;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The recorded request/response pairs (fixtures/pairs.json, after Slurm-web's slurmrestd assets;
 * restd/fixtures/record.sh records them anew) replayed on a fresh cluster of the same
 * slurm.conf: each request must be the one recorded and get the same status, content type and,
 * masked ({@link FixtureMask}), the same body, field for field; and every recorded JSON answer
 * follows the schema the served OpenAPI document gives its operation and status.
 */
class RecordedFixturesTest {
  private static final SpecValidator SERVED = new SpecValidator(OpenApiDocument.implemented());

  @Test
  void aFreshClusterAnswersEveryRecordedRequestAsRecorded() throws Exception {
    // recorded as root (its jobs run as root, it updates nodes): another user gets other answers
    assumeTrue(TestUsers.isRoot(), "the fixtures were recorded as root");
    List<FixtureExchange> live = new ArrayList<>();
    try (FixtureCluster cluster = new FixtureCluster()) {
      new FixtureScenario(cluster.base, cluster.cfg, live::add).run();
    }
    JsonNode recorded = Json.MAPPER.readTree(resource("pairs.json"));
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < Math.max(recorded.size(), live.size()); i++) {
      if (i >= recorded.size() || i >= live.size()) {
        problems.add("pair " + i + ": " + (i >= live.size() ? "recorded but not made: " + recorded.get(i)
            : "made but not recorded: " + live.get(i).entry()));
        continue;
      }
      FixtureExchange now = live.get(i);
      JsonNode was = recorded.get(i);
      String where = now.version() + "/" + now.name();
      if (!was.equals(now.entry())) {
        problems.add(where + ": request or status differs: recorded " + was + ", now " + now.entry());
        continue;
      }
      String body = resource(was.path("response").path("file").asString());
      if (now.json()) {
        differences(Json.MAPPER.readTree(body), Json.MAPPER.readTree(now.maskedBody()), "$", problems, where);
      } else if (!body.equals(now.body())) {
        problems.add(where + ": body was " + body + ", now " + now.body());
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyRecordedAnswerFollowsTheServedSchema() {
    JsonNode recorded = Json.MAPPER.readTree(resource("pairs.json"));
    List<String> problems = new ArrayList<>();
    for (JsonNode pair : recorded) {
      JsonNode resp = pair.path("response");
      if (!resp.path("content-type").asString().equals("application/json")) {
        continue; // Slurm's plain-text refusals (unknown URL, no credentials): compared as text above
      }
      String schema = schema(pair.path("request").path("method").asString(),
          pair.path("request").path("path").asString(), resp.path("status").asInt());
      JsonNode body = Json.MAPPER.readTree(resource(resp.path("file").asString()));
      SERVED.validate(body, schema).forEach(p -> problems.add(resp.path("file").asString() + ": " + p));
    }
    assertThat(recorded.size()).isGreaterThan(100);
    assertThat(problems).isEmpty();
  }

  /**
   * The schema the served document gives the answer of this operation with this status; the bare
   * envelope (v0.0.42_openapi_resp) where a token was refused before the operation.
   */
  private static String schema(String method, String path, int status) {
    JsonNode doc = Json.MAPPER.readTree(OpenApiDocument.implemented().toString());
    return FixtureExchange.route(method, path).filter(r -> status != 401).map(r -> {
      JsonNode responses = doc.path("paths").path(r.specPath()).path(method.toLowerCase(Locale.ROOT))
          .path("responses");
      JsonNode answer = responses.has(String.valueOf(status)) ? responses.get(String.valueOf(status))
          : responses.path("default");
      String ref = answer.path("content").path("application/json").path("schema").path("$ref").asString("");
      return ref.substring(ref.lastIndexOf('/') + 1);
    }).orElse("v0.0.42_openapi_resp");
  }

  /** Where {@code now} differs from {@code was}: fields gone or new, values or types changed. */
  private static void differences(JsonNode was, JsonNode now, String at, List<String> out, String pair) {
    if (was.isObject() && now.isObject()) {
      TreeSet<String> keys = new TreeSet<>(was.propertyNames());
      keys.addAll(now.propertyNames());
      for (String k : keys) {
        if (!now.has(k)) {
          out.add(pair + ": " + at + "." + k + " is gone");
        } else if (!was.has(k)) {
          out.add(pair + ": " + at + "." + k + " is new");
        } else {
          differences(was.get(k), now.get(k), at + "." + k, out, pair);
        }
      }
    } else if (was.isArray() && now.isArray() && was.size() == now.size()) {
      for (int i = 0; i < was.size(); i++) {
        differences(was.get(i), now.get(i), at + "[" + i + "]", out, pair);
      }
    } else if (!was.equals(now)) {
      out.add(pair + ": " + at + " was " + was + ", now " + now);
    }
  }

  private static String resource(String name) {
    try (InputStream in = RecordedFixturesTest.class.getResourceAsStream("fixtures/" + name)) {
      if (in == null) {
        throw new IllegalStateException("fixtures/" + name + " is missing: run restd/fixtures/record.sh");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
