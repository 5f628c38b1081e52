package org.corral.protocol.dataparser;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/** A JSON array being built (see {@link JsonObject}). */
public final class JsonArray {
  private final List<Object> items = new ArrayList<>();
  private Runnable stream; // a streamed array's source: hands each item to `sink` in turn
  private Consumer<Object> sink;

  /**
   * An array whose items are made from {@code source} as it is written, one at a time, so a
   * long list (GET /jobs of a big queue) is never held whole as JSON.
   */
  public static <T> JsonArray streamed(List<T> source, Function<? super T, ?> item) {
    JsonArray a = new JsonArray();
    a.stream = () -> source.forEach(t -> a.sink.accept(item.apply(t)));
    return a;
  }

  /** Each item in order; a streamed array makes them now, one after the other. */
  public void forEachItem(Consumer<Object> each) {
    if (stream == null) {
      items.forEach(each);
      return;
    }
    sink = each;
    try {
      stream.run();
    } finally {
      sink = null;
    }
  }

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

  /** The items (a streamed array's all made now). */
  public List<Object> items() {
    if (stream == null) {
      return Collections.unmodifiableList(items);
    }
    List<Object> all = new ArrayList<>();
    forEachItem(all::add);
    return all;
  }

  public int size() {
    return items().size();
  }

  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public String toString() {
    return JsonWriter.pretty(this);
  }
}
