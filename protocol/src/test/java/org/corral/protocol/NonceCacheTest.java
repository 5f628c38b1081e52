package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NonceCacheTest {
  @Test
  void acceptsANonceOnceAndForgetsItAfterItsExpiry() {
    NonceCache cache = new NonceCache();
    byte[] a = {1, 2, 3};
    assertThat(cache.firstUse(a, 100, 0)).isTrue();
    assertThat(cache.firstUse(a.clone(), 100, 50)).isFalse();
    assertThat(cache.firstUse(new byte[] {9}, 500, 60)).isTrue();
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.firstUse(new byte[] {7}, 900, 101)).isTrue();
    assertThat(cache.size()).as("the nonce expiring at 100 is evicted at 101").isEqualTo(2);
    assertThat(cache.firstUse(a, 1000, 102)).isTrue();
  }
}
