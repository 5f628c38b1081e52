package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
  private final AtomicLong now = new AtomicLong(1_000_000);

  @Test
  void aFullBucketThenRefillRatePerPeriod() {
    RateLimiter rl = RateLimiter.fromParameters("enable_configless,rl_enable,rl_bucket_size=3,rl_refill_rate=2,"
        + "rl_refill_period=5", now::get);
    assertThat(rl.allow(1000)).isTrue();
    assertThat(rl.allow(1000)).isTrue();
    assertThat(rl.allow(1000)).isTrue();
    assertThat(rl.allow(1000)).isFalse();
    assertThat(rl.allow(1001)).as("another user has a bucket of its own").isTrue();
    now.addAndGet(4_999);
    assertThat(rl.allow(1000)).isFalse();
    now.addAndGet(1);
    assertThat(rl.allow(1000)).isTrue();
    assertThat(rl.allow(1000)).isTrue();
    assertThat(rl.allow(1000)).isFalse();
    now.addAndGet(60_000);
    for (int i = 0; i < 3; i++) {
      assertThat(rl.allow(1000)).as("refilled up to the bucket's size, no more").isTrue();
    }
    assertThat(rl.allow(1000)).isFalse();
  }

  @Test
  void largeRequestsCostATokenPerMebibyte() {
    RateLimiter rl = RateLimiter.fromParameters("rl_enable,rl_bucket_size=10", now::get);
    assertThat(RateLimiter.costOf(100)).isEqualTo(1);
    assertThat(RateLimiter.costOf(4 << 20)).isEqualTo(5);
    assertThat(rl.allow(7, RateLimiter.costOf(4 << 20))).isTrue();
    assertThat(rl.allow(7, RateLimiter.costOf(4 << 20))).isTrue();
    assertThat(rl.allow(7, RateLimiter.costOf(4 << 20))).as("none left for a third").isFalse();
    assertThat(rl.allow(7, RateLimiter.costOf(64 << 20))).as("more than a bucket: never with 0 left")
        .isFalse();
  }

  @Test
  void disabledWithoutRlEnableAndBadValuesKeepSlurmsDefaults() {
    assertThat(RateLimiter.fromParameters("rl_bucket_size=3", now::get)).isNull();
    assertThat(RateLimiter.fromParameters(null, now::get)).isNull();
    RateLimiter rl = RateLimiter.fromParameters("rl_enable,rl_bucket_size=0,rl_refill_rate=x", now::get);
    for (int i = 0; i < RateLimiter.BUCKET_SIZE; i++) {
      assertThat(rl.allow(5)).isTrue();
    }
    assertThat(rl.allow(5)).isFalse();
  }
}
