package org.corral.slurmd.hooks;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * HealthCheckProgram: run as root when slurmd starts (before it registers) and then every
 * HealthCheckInterval seconds, when the node is in a state HealthCheckNodeState names. As in
 * Slurm, the program itself acts on what it finds (NHC drains through {@code scontrol update
 * NodeName=$SLURMD_NODENAME State=DRAIN Reason=...}); a non-zero exit is logged, nothing more.
 * It is killed after 60 seconds.
 */
public final class HealthCheck implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmd");
  static final int TIMEOUT_S = 60;

  private final HookProgram program;
  private final int interval;
  private final Set<String> states;
  private final Map<String, String> env = new LinkedHashMap<>();
  private final IntSupplier runningJobs;
  private final String nodeName;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("health-check").daemon().unstarted(r));

  /** @param runningJobs how many jobs the node runs now (for IDLE/ALLOC/MIXED) */
  public HealthCheck(HookSettings settings, String nodeName, String confPath, IntSupplier runningJobs) {
    this.program = new HookProgram(settings.healthCheckProgram().orElseThrow(), "health check");
    this.interval = settings.healthCheckInterval();
    this.states = settings.healthCheckNodeStates();
    this.runningJobs = runningJobs;
    this.nodeName = nodeName;
    env.put("PATH", settings.path());
    env.put("SLURM_CONF", confPath);
    env.put("SLURMD_NODENAME", nodeName);
  }

  /** Runs the program once, now (slurmd's start-up run). Returns its exit status. */
  public int runNow() {
    int rc = program.run(env, TIMEOUT_S);
    if (rc != 0) {
      LOG.log(Level.ERROR, "health_check failed: rc:" + rc);
    }
    return rc;
  }

  /** Runs it every HealthCheckInterval from now on (nothing when the interval is 0). */
  public void start() {
    if (interval <= 0) {
      return;
    }
    // CYCLE spreads the nodes' runs over the interval instead of running them all at once.
    long first = states.contains("CYCLE") ? Math.floorMod(nodeName.hashCode(), interval) : interval;
    timer.scheduleAtFixedRate(this::periodic, first, interval, TimeUnit.SECONDS);
  }

  private void periodic() {
    try {
      if (stateMatches(states, runningJobs.getAsInt())) {
        runNow();
      }
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "health check failed to run: " + e, e);
    }
  }

  /**
   * Whether HealthCheckNodeState lets the check run now. The node daemon knows whether it runs
   * jobs, not how many CPUs they hold: ALLOC and MIXED both mean "runs jobs" here.
   */
  static boolean stateMatches(Set<String> states, int runningJobs) {
    if (states.isEmpty() || states.contains("ANY")
        || (states.size() == 1 && states.contains("CYCLE"))) {
      return true;
    }
    boolean idle = runningJobs == 0;
    return (idle && (states.contains("IDLE") || states.contains("NONDRAINED_IDLE")))
        || (!idle && (states.contains("ALLOC") || states.contains("MIXED")));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
