package org.corral.ctld.triggers;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.function.Supplier;
import org.corral.ctld.state.ClusterState;

/**
 * Looks for trigger events every few seconds (Slurm: every 15), runs the programs of the
 * triggers that fire, and drops those done with (fired without PERM, or whose job is gone).
 * Reads only the published state, so it never holds up the controller.
 */
public final class TriggerLoop implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  /** Seconds between looks. */
  public static final int PERIOD_S = 5;

  private final TriggerTable table;
  private final Supplier<ClusterState> state;
  private final Clock clock;
  private final TriggerEvents events = new TriggerEvents();
  private final Thread thread;
  private volatile boolean running = true;

  public TriggerLoop(TriggerTable table, Supplier<ClusterState> state, Clock clock) {
    this.table = table;
    this.state = state;
    this.clock = clock;
    this.thread = Thread.ofPlatform().daemon().name("triggers").start(this::loop);
  }

  private void loop() {
    while (running) {
      try {
        pass();
        Thread.sleep(PERIOD_S * 1000L);
      } catch (InterruptedException e) {
        return;
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.ERROR, "trigger pass failed: " + e);
      }
    }
  }

  void pass() throws IOException {
    TriggerEvents.Outcome o = events.pass(table.all(), state.get(), clock.millis() / 1000);
    // dropped before the programs run, so that a program may set its trigger again at once
    table.removeIds(o.finished());
    for (TriggerEvents.Firing f : o.firings()) {
      LOG.log(Level.INFO, "trigger " + f.trigger().getId() + " (" + f.trigger().getType() + ") fired: "
          + f.trigger().getProgram() + " " + String.join(" ", f.args()));
      TriggerProgram.start(f.trigger(), f.args());
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
