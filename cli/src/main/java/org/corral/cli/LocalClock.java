package org.corral.cli;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The system clock in the local time zone, the zone looked up only when a command first formats
 * a date: the lookup starts the JDK's time-zone providers, which scan every jar on the class path
 * (some 15 ms of a command's start), and most commands print no date.
 */
final class LocalClock extends Clock {
  private ZoneId zone;

  @Override
  public ZoneId getZone() {
    if (zone == null) {
      zone = ZoneId.systemDefault();
    }
    return zone;
  }

  @Override
  public Clock withZone(ZoneId other) {
    return Clock.system(other);
  }

  @Override
  public long millis() {
    return System.currentTimeMillis();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(System.currentTimeMillis());
  }
}
