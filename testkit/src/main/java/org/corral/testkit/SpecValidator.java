package org.corral.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks a JSON document against a schema of Slurm's published OpenAPI spec: $ref, type
 * (object, array, string, integer, number, boolean), properties, items, enum and required.
 * Slurm writes some required fields as paths ("error/code"): those are looked up nested.
 * Properties a schema does not list are reported too, so a misspelt field name fails. Used by
 * slurmrestd's tests and by the commands' --json tests: one check of the data_parser v0.0.42
 * mapping wherever it is printed.
 */
public final class SpecValidator {
  /** Where slurmrestd ships Slurm's published spec (on the class path with corral-restd). */
  public static final String PUBLISHED = "org/corral/restd/openapi_v0.0.42.json";
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private final JsonNode schemas;

  /** Slurm's published v0.0.42 spec, read from the class path ({@link #PUBLISHED}). */
  public static SpecValidator published() {
    try (InputStream in = SpecValidator.class.getClassLoader().getResourceAsStream(PUBLISHED)) {
      if (in == null) {
        throw new IllegalStateException(PUBLISHED + " is not on the class path (corral-restd is)");
      }
      return new SpecValidator(MAPPER.readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public SpecValidator(JsonNode spec) {
    this.schemas = spec.path("components").path("schemas");
  }

  /** Problems found, empty when the JSON text {@code doc} conforms to schema {@code name}. */
  public List<String> validate(String doc, String name) {
    return validate(MAPPER.readTree(doc), name);
  }

  /** Problems found, empty when {@code doc} conforms to schema {@code name}. */
  public List<String> validate(JsonNode doc, String name) {
    List<String> problems = new ArrayList<>();
    check(doc, schemas.path(name), "$", problems);
    return problems;
  }

  private void check(JsonNode v, JsonNode schema, String where, List<String> problems) {
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asString();
      JsonNode target = schemas.path(ref.substring(ref.lastIndexOf('/') + 1));
      if (target.isMissingNode()) {
        problems.add(where + ": unresolved " + ref);
        return;
      }
      check(v, target, where, problems);
      return;
    }
    String type = schema.path("type").asString("");
    switch (type) {
      case "object" -> {
        if (!v.isObject()) {
          problems.add(where + ": expected an object, got " + v.getNodeType());
          return;
        }
        for (JsonNode req : schema.path("required")) {
          JsonNode at = v;
          for (String part : req.asString().split("/")) {
            at = at.path(part);
          }
          if (at.isMissingNode()) {
            problems.add(where + ": required field " + req.asString() + " is missing");
          }
        }
        JsonNode props = schema.path("properties");
        for (String field : v.propertyNames()) {
          if (props.has(field)) {
            check(v.get(field), props.get(field), where + "." + field, problems);
          } else if (props.size() > 0 || !schema.has("additionalProperties")) {
            problems.add(where + ": field " + field + " is not in the schema");
          }
        }
      }
      case "array" -> {
        if (!v.isArray()) {
          problems.add(where + ": expected an array, got " + v.getNodeType());
          return;
        }
        int i = 0;
        for (JsonNode item : v) {
          check(item, schema.path("items"), where + "[" + i++ + "]", problems);
        }
      }
      case "string" -> {
        if (!v.isString()) {
          problems.add(where + ": expected a string, got " + v.getNodeType());
        } else if (schema.has("enum")) {
          boolean ok = false;
          for (JsonNode e : schema.get("enum")) {
            ok |= e.asString().equals(v.asString());
          }
          if (!ok) {
            problems.add(where + ": " + v.asString() + " is not one of " + schema.get("enum"));
          }
        }
      }
      case "integer" -> {
        if (!v.isIntegralNumber()) {
          problems.add(where + ": expected an integer, got " + v.getNodeType());
        }
      }
      case "number" -> {
        if (!v.isNumber()) {
          problems.add(where + ": expected a number, got " + v.getNodeType());
        }
      }
      case "boolean" -> {
        if (!v.isBoolean()) {
          problems.add(where + ": expected a boolean, got " + v.getNodeType());
        }
      }
      default -> {
        if (schema.has("enum") && v.isString()) {
          check(v, ((tools.jackson.databind.node.ObjectNode) schema.deepCopy()).put("type", "string"), where, problems);
        }
      }
    }
  }
}
