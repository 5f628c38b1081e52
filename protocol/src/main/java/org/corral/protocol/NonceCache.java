package org.corral.protocol;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Nonces seen within their credential's lifetime. An entry is kept until its credential would
 * be refused as expired anyway, so memory is bounded by the rate of valid messages times the TTL.
 */
public final class NonceCache {
  private record Entry(long expiresAtMs, ByteBuffer nonce) {}

  private final Set<ByteBuffer> seen = new HashSet<>();
  private final PriorityQueue<Entry> byExpiry =
      new PriorityQueue<>((a, b) -> Long.compare(a.expiresAtMs, b.expiresAtMs));

  /** Records a nonce; false if it was already recorded and has not expired. */
  public synchronized boolean firstUse(byte[] nonce, long expiresAtMs, long nowMs) {
    evictExpired(nowMs);
    ByteBuffer key = ByteBuffer.wrap(nonce.clone());
    if (!seen.add(key)) {
      return false;
    }
    byExpiry.add(new Entry(expiresAtMs, key));
    return true;
  }

  synchronized int size() {
    return seen.size();
  }

  private void evictExpired(long nowMs) {
    while (!byExpiry.isEmpty() && byExpiry.peek().expiresAtMs < nowMs) {
      seen.remove(byExpiry.poll().nonce);
    }
  }
}
