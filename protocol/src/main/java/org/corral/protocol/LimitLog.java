package org.corral.protocol;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Logs a limit that bites once per peer and limit in an interval, with how often it bit
 * meanwhile: a flood of thousands of refused connections makes a few lines, not thousands.
 */
final class LimitLog {
  private static final System.Logger LOG = System.getLogger(RpcServer.class.getName());
  private static final int MAX_ENTRIES = 4096;

  private final long intervalNanos;
  private final LongSupplier nanos;
  private final Map<String, Entry> entries = new HashMap<>();

  private static final class Entry {
    long next;
    long suppressed;
  }

  LimitLog(Duration interval, LongSupplier nanos) {
    this.intervalNanos = interval.toNanos();
    this.nanos = nanos;
  }

  /** Records one refusal; returns the line logged, or null when this interval's was already. */
  String refused(String peer, String limit, String detail) {
    String line;
    synchronized (this) {
      long now = nanos.getAsLong();
      String key = peer + "\0" + limit;
      Entry e = entries.get(key);
      if (e != null && now - e.next < 0) {
        e.suppressed++;
        return null;
      }
      if (e == null) {
        forgetOld(now);
        e = new Entry();
        entries.put(key, e);
      }
      line = "limit reached (" + limit + ") by " + peer + ": " + detail
          + (e.suppressed > 0 ? "; " + e.suppressed + " more times since the last report" : "");
      e.suppressed = 0;
      e.next = now + intervalNanos;
    }
    LOG.log(Level.WARNING, line);
    return line;
  }

  /** Keeps the table small under a flood from many addresses: old entries go. */
  private void forgetOld(long now) {
    if (entries.size() < MAX_ENTRIES) {
      return;
    }
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (now - e.next >= 0 && e.suppressed == 0) {
        it.remove();
      }
    }
    if (entries.size() >= MAX_ENTRIES) {
      entries.clear();
    }
  }
}
