package org.corral.protocol.dataparser;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** A JSON array being built (see {@link JsonObject}). */
public final class JsonArray {
  private final List<Object> items = new ArrayList<>();

  /** An array of strings. */
  public static JsonArray of(Collection<String> strings) {
    JsonArray a = new JsonArray();
    a.items.addAll(strings);
    return a;
  }

  public JsonArray add(String value) {
    items.add(value == null ? "" : value);
    return this;
  }

  public JsonArray add(long value) {
    items.add(value);
    return this;
  }

  public JsonArray add(JsonObject value) {
    items.add(value);
    return this;
  }

  public JsonArray add(JsonArray value) {
    items.add(value);
    return this;
  }

  /** A new object at the end. */
  public JsonObject addObject() {
    JsonObject o = new JsonObject();
    items.add(o);
    return o;
  }

  public List<Object> items() {
    return Collections.unmodifiableList(items);
  }

  public int size() {
    return items.size();
  }

  public boolean isEmpty() {
    return items.isEmpty();
  }

  @Override
  public String toString() {
    return JsonWriter.pretty(this);
  }
}
