package org.corral.protocol.dataparser;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON object being built: fields in the order they are put, each a String, Long, Double,
 * Boolean, {@link JsonObject} or {@link JsonArray}. The method names are Jackson's (put, set,
 * putObject, putArray), so the mapping reads the same as with a JSON library, without one: the
 * commands' class path stays what it is.
 */
public final class JsonObject {
  private final Map<String, Object> fields = new LinkedHashMap<>();

  public JsonObject put(String name, String value) {
    fields.put(name, value == null ? "" : value);
    return this;
  }

  public JsonObject put(String name, long value) {
    fields.put(name, value);
    return this;
  }

  public JsonObject put(String name, double value) {
    fields.put(name, value);
    return this;
  }

  public JsonObject put(String name, boolean value) {
    fields.put(name, value);
    return this;
  }

  /** Sets a field to an object or array (or replaces it). */
  public JsonObject set(String name, JsonObject value) {
    fields.put(name, value);
    return this;
  }

  public JsonObject set(String name, JsonArray value) {
    fields.put(name, value);
    return this;
  }

  /** An array of strings. */
  public JsonObject set(String name, Collection<String> strings) {
    return set(name, JsonArray.of(strings));
  }

  /** Adds every field of {@code other}, in its order. */
  public JsonObject setAll(JsonObject other) {
    fields.putAll(other.fields);
    return this;
  }

  /** A new object as field {@code name}. */
  public JsonObject putObject(String name) {
    JsonObject o = new JsonObject();
    fields.put(name, o);
    return o;
  }

  /** A new array as field {@code name}. */
  public JsonArray putArray(String name) {
    JsonArray a = new JsonArray();
    fields.put(name, a);
    return a;
  }

  /** The field's value (String, Long, Double, Boolean, JsonObject, JsonArray), or null. */
  public Object get(String name) {
    return fields.get(name);
  }

  public Map<String, Object> fields() {
    return java.util.Collections.unmodifiableMap(fields);
  }

  public int size() {
    return fields.size();
  }

  @Override
  public String toString() {
    return JsonWriter.pretty(this);
  }
}
