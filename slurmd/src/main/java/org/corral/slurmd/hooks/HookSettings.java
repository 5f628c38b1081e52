package org.corral.slurmd.hooks;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.common.config.SlurmConfig;

/**
 * The slurm.conf keys of the node-side hooks (slurm.conf(5)): Prolog, Epilog, PrologFlags,
 * TaskProlog, TaskEpilog, PrologEpilogTimeout, UnkillableStepTimeout and the health check.
 *
 * @param prologEpilogTimeout seconds; 0 = wait for ever (Slurm's default, shown as 65534)
 * @param healthCheckNodeStates upper-case words of HealthCheckNodeState (ANY by default)
 * @param path PATH for the programs: Corral's commands first, so that a health check's or an
 *     epilog's {@code scontrol} is Corral's, then the system's
 */
public record HookSettings(
    Optional<String> prolog,
    Optional<String> epilog,
    Set<String> prologFlags,
    Optional<String> taskProlog,
    Optional<String> taskEpilog,
    int prologEpilogTimeout,
    int unkillableStepTimeout,
    Optional<String> healthCheckProgram,
    int healthCheckInterval,
    Set<String> healthCheckNodeStates,
    String path) {

  /** Slurm's "no timeout" value of PrologEpilogTimeout. */
  static final int NO_TIMEOUT = 65534;

  /** @param commandsDir where Corral's commands (scontrol, ...) are, if known */
  public static HookSettings of(SlurmConfig cfg, Optional<String> commandsDir) {
    return new HookSettings(
        path(cfg, "Prolog"), path(cfg, "Epilog"), words(cfg, "PrologFlags", ""),
        path(cfg, "TaskProlog"), path(cfg, "TaskEpilog"),
        seconds(cfg, "PrologEpilogTimeout", 0, NO_TIMEOUT),
        seconds(cfg, "UnkillableStepTimeout", 60, -1),
        path(cfg, "HealthCheckProgram"), seconds(cfg, "HealthCheckInterval", 0, -1),
        words(cfg, "HealthCheckNodeState", "ANY"),
        commandsDir.map(d -> d + ":" + HookEnvironment.PATH).orElse(HookEnvironment.PATH));
  }

  /** PrologFlags=Alloc (or Contain, which implies it): the Prolog runs at allocation. */
  public boolean prologAtAllocation() {
    return prologFlags.contains("ALLOC") || prologFlags.contains("CONTAIN")
        || prologFlags.contains("X11");
  }

  private static Optional<String> path(SlurmConfig cfg, String key) {
    return cfg.get(key).map(String::strip).filter(v -> !v.isEmpty() && !v.equals("(null)"));
  }

  private static Set<String> words(SlurmConfig cfg, String key, String dflt) {
    String v = cfg.get(key).orElse(dflt);
    return Arrays.stream(v.split(",")).map(w -> w.strip().toUpperCase(Locale.ROOT))
        .filter(w -> !w.isEmpty()).collect(Collectors.toUnmodifiableSet());
  }

  /** A number of seconds; {@code none} (when not negative) reads as 0 = no limit. */
  private static int seconds(SlurmConfig cfg, String key, int dflt, int none) {
    Optional<String> v = cfg.get(key).map(String::strip);
    if (v.isEmpty()) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v.get());
      return n < 0 || n == none ? 0 : n;
    } catch (NumberFormatException e) {
      return dflt;
    }
  }
}
