package org.corral.common.config;

import java.util.Locale;
import java.util.Set;

/**
 * What slurm.conf's (or slurmdbd.conf's) PrivateData hides from plain users, as slurm.conf(5)
 * documents it: others' jobs and steps (jobs), node and partition state (nodes, partitions),
 * reservations they cannot use (reservations), others' usage (usage), other users and the
 * associations they do not deal with (users), accounts they do not coordinate (accounts), and
 * node events (events). root, SlurmUser and operators always see everything; "cloud" only makes
 * powered-down cloud nodes visible.
 */
public record PrivateData(Set<String> flags) {
  /** The words slurm.conf accepts, in the order scontrol show config prints them. */
  public static final String[] WORDS = {"accounts", "cloud", "events", "jobs", "nodes", "partitions",
      "reservations", "usage", "users"};

  /** Nothing private (Slurm's default). */
  public static final PrivateData NONE = new PrivateData(Set.of());

  public PrivateData {
    flags = Set.copyOf(flags);
  }

  /** slurm.conf's PrivateData. */
  public static PrivateData of(SlurmConfig cfg) {
    Set<String> v = cfg.value(SlurmConfKeys.PRIVATE_DATA);
    return v == null ? NONE : new PrivateData(v);
  }

  /** A PrivateData value as written ("jobs,usage"; "none" or empty: nothing private). */
  public static PrivateData parse(String raw) {
    return raw == null ? NONE : new PrivateData(ConfType.flags(java.util.List.of("none"), WORDS).parse("PrivateData", raw));
  }

  public boolean any() {
    return !flags.isEmpty() && !flags.equals(Set.of("cloud"));
  }

  private boolean has(String w) {
    return flags.contains(w.toLowerCase(Locale.ROOT));
  }

  public boolean jobs() {
    return has("jobs");
  }

  public boolean nodes() {
    return has("nodes");
  }

  public boolean partitions() {
    return has("partitions");
  }

  public boolean reservations() {
    return has("reservations");
  }

  public boolean usage() {
    return has("usage");
  }

  public boolean users() {
    return has("users");
  }

  public boolean accounts() {
    return has("accounts");
  }

  public boolean events() {
    return has("events");
  }

  @Override
  public String toString() {
    return flags.isEmpty() ? "none" : String.join(",", java.util.Arrays.stream(WORDS).filter(flags::contains).toList());
  }
}
