package org.corral.restd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI document slurmrestd serves at /openapi/v3: Slurm's published v0.0.42 (and v0.0.41)
 * specs cut down to the operations {@link Routes#all()} answers, with the schemas they reference, so clients
 * generated from it call only what exists.
 */
final class OpenApiDocument {
  private static final String SPEC = "openapi_v0.0.42.json";

  private OpenApiDocument() {}

  /** Slurm's full published spec, as shipped. */
  static ObjectNode published() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream(SPEC)) {
      if (in == null) {
        throw new IllegalStateException(SPEC + " is missing from the class path");
      }
      return (ObjectNode) Json.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The published specs reduced to the implemented operations: v0.0.42's document with the
   * v0.0.42 and v0.0.41 operations served and the schemas they reference, each version's from
   * its own published spec (their schema names carry the version, so they do not collide).
   */
  static ObjectNode implemented() {
    ObjectNode full = published();
    ObjectNode v41 = DataParserV41.published();
    ObjectNode out = full.deepCopy();
    ObjectNode paths = out.putObject("paths");
    for (Routes.Route r : Routes.all()) {
      ObjectNode source = r.v41() ? v41 : full;
      JsonNode op = source.path("paths").path(r.specPath()).get(r.method().toLowerCase(Locale.ROOT));
      if (op == null) {
        throw new IllegalStateException("the published spec has no " + r.method() + " " + r.specPath());
      }
      ObjectNode path = paths.has(r.specPath()) ? (ObjectNode) paths.get(r.specPath()) : paths.putObject(r.specPath());
      path.set(r.method().toLowerCase(Locale.ROOT), op);
    }
    ObjectNode all = ((ObjectNode) full.path("components").path("schemas")).deepCopy();
    all.setAll((ObjectNode) v41.path("components").path("schemas").deepCopy());
    Set<String> used = referenced(paths, all);
    ObjectNode schemas = ((ObjectNode) out.get("components")).putObject("schemas");
    all.properties().forEach(e -> {
      if (used.contains(e.getKey())) {
        schemas.set(e.getKey(), e.getValue());
      }
    });
    ObjectNode info = (ObjectNode) out.get("info");
    info.put("description", "Slurm's REST API as Corral's slurmrestd implements it (the operations listed here)");
    return out;
  }

  /** Every schema reachable through $ref from {@code root}. */
  private static Set<String> referenced(JsonNode root, JsonNode schemas) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<JsonNode> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      JsonNode n = todo.pop();
      if (n.isObject()) {
        JsonNode ref = n.get("$ref");
        if (ref != null && ref.isString() && ref.asString().startsWith("#/components/schemas/")) {
          String name = ref.asString().substring("#/components/schemas/".length());
          if (seen.add(name)) {
            todo.push(schemas.path(name));
          }
        }
        n.values().forEach(todo::push);
      } else if (n.isArray()) {
        n.values().forEach(todo::push);
      }
    }
    return seen;
  }
}
