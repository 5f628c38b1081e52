package org.corral.restd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * data_parser v0.0.41 (Slurm 24.05's) beside v0.0.42: the same handlers answer
 * {@code /slurm/v0.0.41/...} and {@code /slurmdb/v0.0.41/...}, and their documents are mapped
 * onto the v0.0.41 schemas of Slurm's published spec ({@value #SPEC}). Where the two versions
 * differ for what Corral serves (found by diffing the two published specs):
 * <ul>
 *   <li>v0.0.42 fields v0.0.41 does not have are left out (job_info priority_by_partition,
 *       slurmdb job qosreq/restart_cnt, ping responding/primary, accounting id_alt, qos
 *       limits.max.jobs.count and limits.max.tres.minutes.total, the kill_job_resp status);
 *   <li>renamed: job_info required_switches is v0.0.41's minimum_switches;
 *   <li>v0.0.42 {set,infinite,number} where v0.0.41 has a plain number (shares' effective_usage,
 *       fairshare factor and level) are unwrapped;
 *   <li>v0.0.41's deprecated fields are filled: the submit response's {@code result}, the job
 *       update response's first job_id/step_id/job_submit_user_msg;
 *   <li>paths v0.0.41 does not define are not served there (slurmdb ping, DELETE reservation).
 * </ul>
 * Everything else (enums inlined in v0.0.41 rather than named, descriptions) is the same on the
 * wire.
 */
final class DataParserV41 {
  static final String VERSION = "v0.0.41";
  static final String SPEC = "openapi_v0.0.41.json";
  private static final Map<String, String> RENAMED = Map.of("required_switches", "minimum_switches");

  private DataParserV41() {}

  /** Slurm's published v0.0.41 spec, as shipped. */
  static ObjectNode published() {
    return Lazy.SPEC;
  }

  private static final class Lazy {
    static final ObjectNode SPEC = load();

    private static ObjectNode load() {
      try (InputStream in = DataParserV41.class.getResourceAsStream(DataParserV41.SPEC)) {
        if (in == null) {
          throw new IllegalStateException(DataParserV41.SPEC + " is missing from the class path");
        }
        return (ObjectNode) Json.MAPPER.readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The v0.0.41 twin of each v0.0.42 route whose path and method v0.0.41 defines too. */
  static List<Routes.Route> routes(List<Routes.Route> v42) {
    JsonNode paths = published().path("paths");
    List<Routes.Route> out = new ArrayList<>();
    for (Routes.Route r : v42) {
      String specPath = r.specPath().replace("/" + SlurmApi.VERSION + "/", "/" + VERSION + "/");
      if (paths.path(specPath).has(r.method().toLowerCase(Locale.ROOT))) {
        Pattern p = Pattern.compile(r.pattern().pattern().replace(SlurmApi.VERSION, VERSION));
        out.add(new Routes.Route(r.method(), specPath, p, r.plugin(), r.handler(), VERSION));
      }
    }
    return List.copyOf(out);
  }

  /** The name of the schema a v0.0.41 route's 200 answer has. */
  static String responseSchema(Routes.Route r) {
    String ref = published().path("paths").path(r.specPath()).path(r.method().toLowerCase(Locale.ROOT))
        .path("responses").path("200").path("content").path("application/json").path("schema").path("$ref")
        .asString("");
    return ref.substring(ref.lastIndexOf('/') + 1);
  }

  /** A v0.0.42 response document of route {@code r} as v0.0.41 writes it. */
  static byte[] adapt(byte[] v42, Routes.Route r) {
    String schema = responseSchema(r);
    ObjectNode doc = (ObjectNode) Json.MAPPER.readTree(v42);
    JsonNode plugin = doc.path("meta").path("plugin");
    if (plugin.isObject()) {
      ((ObjectNode) plugin).put("data_parser", "data_parser/" + VERSION);
    }
    fillDeprecated(doc, schema);
    JsonNode adapted = conform(doc, published().path("components").path("schemas").path(schema));
    return Json.MAPPER.writeValueAsBytes(adapted);
  }

  /** v0.0.41's deprecated copies of fields v0.0.42 dropped. */
  private static void fillDeprecated(ObjectNode doc, String schema) {
    if (schema.equals("v0.0.41_openapi_job_submit_response") && doc.has("job_id")) {
      ObjectNode result = doc.putObject("result");
      result.set("job_id", doc.get("job_id"));
      result.put("step_id", doc.path("step_id").asString("batch"));
      result.put("error_code", 0);
      result.put("error", "");
      result.put("job_submit_user_msg", doc.path("job_submit_user_msg").asString(""));
    } else if (schema.equals("v0.0.41_openapi_job_post_response") && doc.path("results").size() > 0) {
      JsonNode first = doc.path("results").get(0);
      doc.put("job_id", first.path("job_id").asString());
      doc.put("step_id", first.path("step_id").asString(""));
      doc.put("job_submit_user_msg", first.path("why").asString(""));
    }
  }

  /** {@code v} shaped as v0.0.41 schema {@code schema} says (see the class comment). */
  private static JsonNode conform(JsonNode v, JsonNode schema) {
    JsonNode s = resolve(schema);
    String type = s.path("type").asString("");
    if (type.equals("object") && v.isObject() && s.path("properties").size() > 0) {
      JsonNode props = s.path("properties");
      ObjectNode out = Json.MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> e : v.properties()) {
        String name = props.has(e.getKey()) ? e.getKey() : RENAMED.get(e.getKey());
        if (name != null && props.has(name)) {
          out.set(name, conform(e.getValue(), props.get(name)));
        }
      }
      return out;
    }
    if (type.equals("array") && v.isArray()) {
      ArrayNode out = Json.MAPPER.createArrayNode();
      v.forEach(item -> out.add(conform(item, s.path("items"))));
      return out;
    }
    if ((type.equals("number") || type.equals("integer")) && v.isObject() && v.has("number")) {
      return v.get("number");
    }
    return v;
  }

  private static JsonNode resolve(JsonNode schema) {
    JsonNode s = schema;
    while (s.has("$ref")) {
      String ref = s.get("$ref").asString();
      s = published().path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
    }
    return s;
  }
}
