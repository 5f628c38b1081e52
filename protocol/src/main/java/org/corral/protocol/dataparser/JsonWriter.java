package org.corral.protocol.dataparser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes JSON: whole trees ({@link JsonObject}, {@link JsonArray}) or a document piece by piece
 * (begin/key/value/end), so a long list can go out as it comes. Pretty output is Slurm's
 * data_parser layout (two spaces, {@code "key": value}, empty {@code []} and {@code {}}), as the
 * commands print it; compact output is what slurmrestd sends.
 */
public final class JsonWriter {
  private static final int FLUSH_AT = 64 * 1024;
  private final StringBuilder out = new StringBuilder();
  private final Appendable sink;
  private final boolean pretty;
  private int depth;
  private boolean first = true;
  private boolean afterKey;

  /** Into a string ({@link #toString()}), pretty. */
  public JsonWriter() {
    this(null, true);
  }

  /** Into {@code sink} at each {@link #flush()}; null keeps it all for {@link #toString()}. */
  public JsonWriter(Appendable sink, boolean pretty) {
    this.sink = sink;
    this.pretty = pretty;
  }

  /** A tree as Slurm's commands print it. */
  public static String pretty(Object tree) {
    return new JsonWriter().value(tree).toString();
  }

  /** A tree on one line, as slurmrestd sends it. */
  public static String compact(Object tree) {
    return new JsonWriter(null, false).value(tree).toString();
  }

  public JsonWriter beginObject() {
    open('{');
    return this;
  }

  public JsonWriter endObject() {
    close('}');
    return this;
  }

  public JsonWriter beginArray() {
    open('[');
    return this;
  }

  public JsonWriter endArray() {
    close(']');
    return this;
  }

  /** Names the next value of the current object. */
  public JsonWriter key(String name) {
    separate();
    quote(name);
    out.append(pretty ? ": " : ":");
    afterKey = true;
    return this;
  }

  /**
   * A value: a String, a number, a Boolean, null, or a tree ({@link JsonObject},
   * {@link JsonArray}) written whole at the current place.
   */
  public JsonWriter value(Object v) {
    // instanceof, not a pattern switch: no invokedynamic bootstrap in a command's start-up
    if (v instanceof String s) {
      separate();
      quote(s);
    } else if (v instanceof JsonObject o) {
      beginObject();
      for (Map.Entry<String, Object> e : o.fields().entrySet()) {
        key(e.getKey()).value(e.getValue());
      }
      endObject();
    } else if (v instanceof JsonArray a) {
      beginArray();
      a.forEachItem(item -> {
        value(item);
        if (out.length() >= FLUSH_AT) {
          flush(); // a long array goes out as it is written
        }
      });
      endArray();
    } else if (v instanceof Double || v instanceof Float) {
      scalar(number(((Number) v).doubleValue()));
    } else if (v instanceof Number || v instanceof Boolean || v == null) {
      scalar(String.valueOf(v));
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
    }
    return this;
  }

  /** Hands what is written so far to the sink. */
  public JsonWriter flush() {
    if (sink != null && !out.isEmpty()) {
      try {
        sink.append(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      out.setLength(0);
    }
    return this;
  }

  /** What is written and not yet flushed. */
  @Override
  public String toString() {
    return out.toString();
  }

  private static String number(double n) {
    return n == Math.rint(n) && Math.abs(n) < 1e15 ? Long.toString((long) n) : Double.toString(n);
  }

  private void scalar(String text) {
    separate();
    out.append(text);
  }

  private void open(char c) {
    separate();
    out.append(c);
    depth++;
    first = true;
  }

  private void close(char c) {
    depth--;
    if (!first) {
      newline();
    }
    out.append(c);
    first = false;
  }

  private void separate() {
    if (afterKey) {
      afterKey = false;
      return;
    }
    if (depth > 0) {
      if (!first) {
        out.append(',');
      }
      newline();
    }
    first = false;
  }

  private void newline() {
    if (pretty) {
      out.append('\n');
      for (int i = 0; i < depth; i++) {
        out.append("  ");
      }
    }
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (ch < 0x20) {
            out.append("\\u00").append(Character.forDigit(ch >> 4, 16)).append(Character.forDigit(ch & 15, 16));
          } else {
            out.append(ch);
          }
        }
      }
    }
    out.append('"');
  }
}
