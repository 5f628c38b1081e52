package org.corral.restd;

import java.util.Collection;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Jackson's mapper and the shapes Slurm's data_parser uses again and again. */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Slurm's INFINITE for 32-bit fields (time limits, node counts). */
  static final long INFINITE32 = 0xFFFFFFFFL;

  private Json() {}

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ArrayNode array() {
    return NODES.arrayNode();
  }

  static ArrayNode strings(Collection<String> values) {
    ArrayNode a = array();
    values.forEach(a::add);
    return a;
  }

  /** A set number: {@code {"set":true,"infinite":false,"number":n}}. */
  static ObjectNode number(long n) {
    return noVal(true, false).put("number", n);
  }

  static ObjectNode number(double n) {
    return noVal(true, false).put("number", n);
  }

  /** Slurm's NO_VAL: not set. */
  static ObjectNode unset() {
    return noVal(false, false).put("number", 0);
  }

  /** Slurm's INFINITE. */
  static ObjectNode infinite() {
    return noVal(false, true).put("number", 0);
  }

  /** A protobuf uint32 count or limit (as Java's int) where 0xFFFFFFFF means INFINITE. */
  static ObjectNode limit32(int n) {
    long unsigned = Integer.toUnsignedLong(n);
    return unsigned == INFINITE32 ? infinite() : number(unsigned);
  }

  /** A path segment as the client meant it (percent-decoded). */
  static String pathPart(String raw) {
    return java.net.URLDecoder.decode(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static ObjectNode noVal(boolean set, boolean infinite) {
    ObjectNode o = object();
    o.put("set", set);
    o.put("infinite", infinite);
    return o;
  }
}
