package org.corral.ctld.runtime;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Slurm's per-user RPC rate limiting (SlurmctldParameters=rl_enable, Slurm 23.02+): a bucket of
 * rl_bucket_size tokens per user, one taken by each RPC, rl_refill_rate tokens put back every
 * rl_refill_period seconds up to the bucket's size. Users are kept in a table of rl_table_size
 * slots by uid; two users sharing a slot share a bucket (Slurm's table works the same way).
 * root and SlurmUser are never limited; the caller checks that.
 */
final class RateLimiter {
  /** Slurm's defaults. */
  static final int TABLE_SIZE = 8192;
  static final int BUCKET_SIZE = 30;
  static final int REFILL_RATE = 2;
  static final int REFILL_PERIOD_S = 1;

  private final int tableSize;
  private final int bucketSize;
  private final int refillRate;
  private final long refillPeriodMs;
  private final LongSupplier millis;
  private final int[] uids;
  private final int[] tokens;
  private final long[] lastRefill;

  RateLimiter(int tableSize, int bucketSize, int refillRate, int refillPeriodS, LongSupplier millis) {
    this.tableSize = tableSize;
    this.bucketSize = bucketSize;
    this.refillRate = refillRate;
    this.refillPeriodMs = refillPeriodS * 1000L;
    this.millis = millis;
    this.uids = new int[tableSize];
    this.tokens = new int[tableSize];
    this.lastRefill = new long[tableSize];
    java.util.Arrays.fill(uids, -1);
  }

  /**
   * The limiter SlurmctldParameters asks for, or null without rl_enable. Values that are not
   * positive numbers keep Slurm's defaults, as slurmctld does.
   */
  static RateLimiter fromParameters(String slurmctldParameters, LongSupplier millis) {
    String params = slurmctldParameters == null ? "" : slurmctldParameters.toLowerCase(Locale.ROOT);
    boolean enabled = false;
    int table = TABLE_SIZE;
    int bucket = BUCKET_SIZE;
    int rate = REFILL_RATE;
    int period = REFILL_PERIOD_S;
    for (String p : params.split(",")) {
      String p2 = p.trim();
      int eq = p2.indexOf('=');
      String key = eq < 0 ? p2 : p2.substring(0, eq);
      String value = eq < 0 ? "" : p2.substring(eq + 1);
      switch (key) {
        case "rl_enable" -> enabled = true;
        case "rl_table_size" -> table = positive(value, table);
        case "rl_bucket_size" -> bucket = positive(value, bucket);
        case "rl_refill_rate" -> rate = positive(value, rate);
        case "rl_refill_period" -> period = positive(value, period);
        default -> { }
      }
    }
    return enabled ? new RateLimiter(table, bucket, rate, period, millis) : null;
  }

  private static int positive(String v, int otherwise) {
    try {
      int n = Integer.parseInt(v.trim());
      return n > 0 ? n : otherwise;
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** Takes a token for one RPC of {@code uid}; false when its bucket is empty (back off). */
  boolean allow(int uid) {
    return allow(uid, 1);
  }

  /**
   * Takes {@code cost} tokens (an RPC of many bytes costs more, see {@link #costOf}); false,
   * taking none, when the bucket holds fewer. A cost above the bucket's size needs a full one.
   */
  synchronized boolean allow(int uid, int cost) {
    int slot = Math.floorMod(uid, tableSize);
    long now = millis.getAsLong();
    if (uids[slot] != uid) {
      uids[slot] = uid; // a new user, or one that replaces another in this slot: a full bucket
      tokens[slot] = bucketSize;
      lastRefill[slot] = now;
    } else if (now - lastRefill[slot] >= refillPeriodMs) {
      long periods = (now - lastRefill[slot]) / refillPeriodMs;
      tokens[slot] = (int) Math.min(bucketSize, tokens[slot] + periods * refillRate);
      lastRefill[slot] += periods * refillPeriodMs;
    }
    int take = Math.min(Math.max(1, cost), bucketSize);
    if (tokens[slot] < take) {
      return false;
    }
    tokens[slot] -= take;
    return true;
  }

  /** Bytes of a request that cost one more token each (a Corral extension of Slurm's counting). */
  static final int BYTES_PER_TOKEN = 1 << 20;

  /** What a request of {@code bytes} costs: one token, and one more for each whole MiB. */
  static int costOf(int bytes) {
    return 1 + bytes / BYTES_PER_TOKEN;
  }
}
