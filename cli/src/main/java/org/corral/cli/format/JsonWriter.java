package org.corral.cli.format;

/**
 * A small JSON writer for the commands' --json output (squeue, sinfo): objects, arrays,
 * strings, numbers, booleans and Slurm's "no value" numbers, pretty-printed with two spaces as
 * Slurm's data_parser prints them. Hand-written so that the commands' class path stays one small
 * jar: no JSON library is loaded, even with --json.
 */
public final class JsonWriter {
  private final StringBuilder out = new StringBuilder();
  private int depth;
  private boolean first = true;
  private boolean afterKey;

  /** Slurm's INFINITE for 32-bit fields. */
  public static final long INFINITE32 = 0xFFFFFFFFL;

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
    out.append(": ");
    afterKey = true;
    return this;
  }

  public JsonWriter value(String s) {
    separate();
    quote(s == null ? "" : s);
    return this;
  }

  public JsonWriter value(long n) {
    separate();
    out.append(n);
    return this;
  }

  public JsonWriter value(double n) {
    separate();
    out.append(n == Math.rint(n) && Math.abs(n) < 1e15 ? Long.toString((long) n) : Double.toString(n));
    return this;
  }

  public JsonWriter value(boolean b) {
    separate();
    out.append(b);
    return this;
  }

  public JsonWriter field(String name, String s) {
    return key(name).value(s);
  }

  public JsonWriter field(String name, long n) {
    return key(name).value(n);
  }

  public JsonWriter field(String name, boolean b) {
    return key(name).value(b);
  }

  /** An array of strings. */
  public JsonWriter strings(String name, Iterable<String> values) {
    key(name).beginArray();
    values.forEach(this::value);
    return endArray();
  }

  /** Slurm's number with no-value flags: {"set":true,"infinite":false,"number":n}. */
  public JsonWriter number(String name, long n) {
    return noVal(name, true, false, n);
  }

  public JsonWriter number(String name, double n) {
    key(name).beginObject().field("set", true).field("infinite", false).key("number").value(n);
    return endObject();
  }

  /** Slurm's NO_VAL: {"set":false,"infinite":false,"number":0}. */
  public JsonWriter unset(String name) {
    return noVal(name, false, false, 0);
  }

  /** A 32-bit count or limit where 0xFFFFFFFF means INFINITE. */
  public JsonWriter limit32(String name, int n) {
    long unsigned = Integer.toUnsignedLong(n);
    return unsigned == INFINITE32 ? noVal(name, false, true, 0) : number(name, unsigned);
  }

  private JsonWriter noVal(String name, boolean set, boolean infinite, long n) {
    key(name).beginObject().field("set", set).field("infinite", infinite).field("number", n);
    return endObject();
  }

  @Override
  public String toString() {
    return out.toString();
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
    out.append('\n');
    out.append("  ".repeat(depth));
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
            out.append(String.format("\\u%04x", (int) ch));
          } else {
            out.append(ch);
          }
        }
      }
    }
    out.append('"');
  }
}
