package org.corral.common;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reservation flags by Slurm's names, in the order scontrol prints them
 * ({@code Flags=MAINT,FLEX,OVERLAP,IGNORE_JOBS,HOURLY,DAILY,WEEKDAY,WEEKEND,WEEKLY,SPEC_NODES,MAGNETIC},
 * as the reference printed them). SPEC_NODES is not asked for: a reservation gets it when its nodes were
 * named.
 */
public final class ReservationFlags {
  public static final String MAINT = "MAINT";
  public static final String FLEX = "FLEX";
  public static final String OVERLAP = "OVERLAP";
  public static final String IGNORE_JOBS = "IGNORE_JOBS";
  public static final String HOURLY = "HOURLY";
  public static final String DAILY = "DAILY";
  public static final String WEEKDAY = "WEEKDAY";
  public static final String WEEKEND = "WEEKEND";
  public static final String WEEKLY = "WEEKLY";
  public static final String SPEC_NODES = "SPEC_NODES";
  public static final String MAGNETIC = "MAGNETIC";
  /** PURGE_COMP[=time]: deleted once idle (no job) that long; given bare, 5 minutes (as on the reference). */
  public static final String PURGE_COMP = "PURGE_COMP";
  /** PURGE_COMP's time when none is given. */
  public static final long PURGE_COMP_DEFAULT_S = 300;

  private static final List<String> ORDER =
      List.of(MAINT, FLEX, OVERLAP, IGNORE_JOBS, HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY, SPEC_NODES, PURGE_COMP,
          MAGNETIC);
  /** Those a user may give (Flags=), in any case. */
  private static final Set<String> GIVEN =
      Set.of(MAINT, FLEX, OVERLAP, IGNORE_JOBS, HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY, PURGE_COMP, MAGNETIC);

  private ReservationFlags() {}

  /**
   * Flags= as typed ("maint,ignore_jobs", "-daily" on update) in canonical form, each name upper
   * case with its "-" kept; null when a name is unknown (Slurm: "Error parsing flags X").
   * {@code PURGE_COMP=time} (a time limit: minutes, [days-]hours:minutes:seconds) becomes
   * {@code PURGE_COMP=MINUTES} (which parses again to the same); bare, or with a time that does not parse, it stays {@code PURGE_COMP}
   * (its default, as the reference took {@code PURGE_COMP=xyz}).
   */
  public static List<String> parse(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.split(",")) {
      boolean minus = w.startsWith("-");
      String name = (minus ? w.substring(1) : w).toUpperCase(Locale.ROOT);
      String time = null;
      int eq = name.indexOf('=');
      if (eq >= 0 && name.startsWith(PURGE_COMP + "=")) {
        time = name.substring(eq + 1);
        name = PURGE_COMP;
      }
      if (!GIVEN.contains(name)) {
        return null;
      }
      if (time != null && !minus) {
        long minutes = purgeMinutes(time);
        out.add(minutes < 0 ? name : name + "=" + minutes);
      } else {
        out.add(minus ? "-" + name : name);
      }
    }
    return out;
  }

  /** PURGE_COMP's time in minutes, -1 when it does not parse. */
  private static long purgeMinutes(String time) {
    if (time.isEmpty()) {
      return -1;
    }
    try {
      long minutes = SlurmDuration.parseMinutes(time);
      return minutes == SlurmDuration.INFINITE ? -1 : minutes;
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /**
   * Flags= as scontrol prints it: PURGE_COMP with its time ({@code PURGE_COMP=00:05:00}), bare when
   * that is 0, as the reference printed them.
   */
  public static String shown(List<String> flags, long purgeCompSeconds) {
    List<String> out = new ArrayList<>();
    for (String f : flags) {
      out.add(f.equals(PURGE_COMP) && purgeCompSeconds > 0
          ? PURGE_COMP + "=" + SlurmDuration.formatSecondsPadded(purgeCompSeconds) : f);
    }
    return String.join(",", out);
  }

  /** The flags in Slurm's printing order, each once. */
  public static List<String> ordered(Set<String> flags) {
    Set<String> out = new LinkedHashSet<>();
    for (String f : ORDER) {
      if (flags.contains(f)) {
        out.add(f);
      }
    }
    return List.copyOf(out);
  }
}
