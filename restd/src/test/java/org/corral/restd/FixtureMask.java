package org.corral.restd;

import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What differs from one run of the fixture scenario to the next (times, versions, ports, load,
 * usage, the client's address), blanked so a recorded answer and a new one can be compared as
 * whole documents. Blanking keeps the type (numbers become 0, strings "<masked>", booleans stay)
 * so a masked document still validates against the spec, and a field that changes type, name or
 * shape still shows. A rule names a field ("key") or a field under a parent ("parent.key", array
 * indices skipped).
 */
final class FixtureMask {
  static final String MASKED = "<masked>";

  /** Fields whose scalars are blanked, their structure kept. */
  private static final Set<String> VALUES = Set.of(
      // times
      "submit_time", "eligible_time", "accrue_time", "start_time", "end_time", "begin_time",
      "last_sched_evaluation", "preemptable_time", "resize_time", "jobs.suspend_time", "pre_sus_time",
      "boot_time", "slurmd_start_time", "last_busy", "reason_changed_at", "last_update", "last_backfill",
      "jobs.time", "steps.time",
      // what the host and the run decide
      "slurm.version", "slurm.release", "client.source", "pings.latency", "pings.hostname", "nodes.port",
      "nodes.version", "nodes.operating_system", "nodes.architecture", "nodes.cpu_load", "nodes.free_mem",
      "controller.port", "controller.host", "steps.pid",
      // usage, sampled from the processes and decaying with time
      "steps.tres", "usage", "effective_usage", "fairshare", "usage_normalized");

  /** Fields reduced to their shape: scalars blanked and arrays cut to their first item (diag's counters). */
  private static final Set<String> SHAPES = Set.of("statistics");

  private FixtureMask() {}

  /** {@code doc} with the run-dependent fields blanked (a copy; the argument is unchanged). */
  static JsonNode apply(JsonNode doc) {
    return walk(doc, "", null);
  }

  /** Which rule, if any, applies to field {@code key} under {@code parent}: "values", "shape" or null. */
  private static String rule(String parent, String key) {
    if (SHAPES.contains(key)) {
      return "shape";
    }
    return VALUES.contains(key) || VALUES.contains(parent + "." + key) ? "values" : null;
  }

  private static JsonNode walk(JsonNode n, String parent, String mode) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (n.isObject()) {
      ObjectNode out = f.objectNode();
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        String m = mode != null ? mode : rule(parent, e.getKey());
        out.set(e.getKey(), walk(e.getValue(), e.getKey(), m));
      }
      return out;
    }
    if (n.isArray()) {
      ArrayNode out = f.arrayNode();
      List<JsonNode> items = n.valueStream().toList();
      for (JsonNode item : "shape".equals(mode) && !items.isEmpty() ? items.subList(0, 1) : items) {
        out.add(walk(item, parent, mode));
      }
      return out;
    }
    if (mode == null || n.isBoolean() || n.isNull()) {
      return n;
    }
    if (n.isNumber()) {
      return f.numberNode(0);
    }
    return n.isString() && !n.asString().isEmpty() ? f.stringNode(MASKED) : n;
  }
}
