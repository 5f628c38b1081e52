package org.corral.protocol.dataparser;

/**
 * Slurm's numbers that may be unset or infinite (data_parser's *_NO_VAL structs):
 * {@code {"set":true,"infinite":false,"number":n}}.
 */
public final class NoVal {
  /** Slurm's INFINITE for 32-bit fields (time limits, node counts). */
  public static final long INFINITE32 = 0xFFFFFFFFL;

  private NoVal() {}

  /** A set number. */
  public static JsonObject number(long n) {
    return flags(true, false).put("number", n);
  }

  public static JsonObject number(double n) {
    return flags(true, false).put("number", n);
  }

  /** Slurm's NO_VAL: not set. */
  public static JsonObject unset() {
    return flags(false, false).put("number", 0);
  }

  /** Slurm's INFINITE. */
  public static JsonObject infinite() {
    return flags(false, true).put("number", 0);
  }

  /** A protobuf uint32 count or limit (as Java's int) where 0xFFFFFFFF means INFINITE. */
  public static JsonObject limit32(int n) {
    long unsigned = Integer.toUnsignedLong(n);
    return unsigned == INFINITE32 ? infinite() : number(unsigned);
  }

  private static JsonObject flags(boolean set, boolean infinite) {
    return new JsonObject().put("set", set).put("infinite", infinite);
  }
}
