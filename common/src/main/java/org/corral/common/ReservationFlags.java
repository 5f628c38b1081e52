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

  private static final List<String> ORDER =
      List.of(MAINT, FLEX, OVERLAP, IGNORE_JOBS, HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY, SPEC_NODES, MAGNETIC);
  /** Those a user may give (Flags=), in any case. */
  private static final Set<String> GIVEN =
      Set.of(MAINT, FLEX, OVERLAP, IGNORE_JOBS, HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY, MAGNETIC);

  private ReservationFlags() {}

  /**
   * Flags= as typed ("maint,ignore_jobs", "-daily" on update) in canonical form, each name upper
   * case with its "-" kept; null when a name is unknown (Slurm: "Error parsing flags X").
   */
  public static List<String> parse(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.split(",")) {
      boolean minus = w.startsWith("-");
      String name = (minus ? w.substring(1) : w).toUpperCase(Locale.ROOT);
      if (!GIVEN.contains(name)) {
        return null;
      }
      out.add(minus ? "-" + name : name);
    }
    return out;
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
