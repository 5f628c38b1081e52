package org.corral.slurmd.hooks;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.corral.common.config.SlurmConfKeys;
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
    Set<String> flags = cfg.value(SlurmConfKeys.PROLOG_FLAGS);
    long timeout = cfg.value(SlurmConfKeys.PROLOG_EPILOG_TIMEOUT);
    return new HookSettings(
        cfg.text(SlurmConfKeys.PROLOG), cfg.text(SlurmConfKeys.EPILOG), upper(flags == null ? Set.of() : flags),
        cfg.text(SlurmConfKeys.TASK_PROLOG), cfg.text(SlurmConfKeys.TASK_EPILOG),
        timeout == NO_TIMEOUT ? 0 : seconds(timeout),
        seconds(cfg.value(SlurmConfKeys.UNKILLABLE_STEP_TIMEOUT)),
        cfg.text(SlurmConfKeys.HEALTH_CHECK_PROGRAM), seconds(cfg.value(SlurmConfKeys.HEALTH_CHECK_INTERVAL)),
        upper(cfg.value(SlurmConfKeys.HEALTH_CHECK_NODE_STATE)),
        commandsDir.map(d -> d + ":" + HookEnvironment.PATH).orElse(HookEnvironment.PATH));
  }

  /** PrologFlags=Alloc (or Contain, which implies it): the Prolog runs at allocation. */
  public boolean prologAtAllocation() {
    return prologFlags.contains("ALLOC") || prologFlags.contains("CONTAIN")
        || prologFlags.contains("X11");
  }

  private static Set<String> upper(Set<String> words) {
    return words.stream().map(w -> w.toUpperCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
  }

  private static int seconds(long s) {
    return (int) Math.min(Integer.MAX_VALUE, s);
  }
}
