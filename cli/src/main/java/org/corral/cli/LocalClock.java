package org.corral.cli;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The system clock in the local time zone, the zone looked up only when a command first formats
 * a date: the lookup starts the JDK's time-zone providers, which scan every jar on the class path
 * (some 15 ms of a command's start), and most commands print no date.
 */
public final class LocalClock extends Clock {
  private ZoneId zone;

  public LocalClock() {}

  private LocalClock(ZoneId zone) {
    this.zone = zone;
  }

  /**
   * The clock of a caller whose TZ variable is given (null: unset): the zone it names (":" and
   * a zoneinfo path prefix allowed, as the C library allows), else this JVM's default zone,
   * which the command server gets with TZ unset, from /etc/localtime.
   */
  public static LocalClock forTimeZone(String tz) {
    if (tz == null || tz.isEmpty()) {
      return new LocalClock();
    }
    String id = tz.startsWith(":") ? tz.substring(1) : tz;
    int zoneinfo = id.indexOf("/zoneinfo/");
    if (id.startsWith("/") && zoneinfo >= 0) {
      id = id.substring(zoneinfo + "/zoneinfo/".length());
    }
    try {
      return new LocalClock(ZoneId.of(id));
    } catch (java.time.DateTimeException e) {
      return new LocalClock();
    }
  }

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
