package org.corral.cli.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.corral.cli.Caller;
import org.corral.cli.submit.SignalQueue;

/**
 * The front end's signals for one call. A signal the command catches (srun's Ctrl-C, salloc's
 * SIGTERM) goes to its queue; any other ends the call as it would end a command of its own: the
 * front end is told to die of it.
 */
final class CallerSignals implements Caller.Signals {
  private final Map<Integer, SignalQueue> caught = new ConcurrentHashMap<>();

  @Override
  public SignalQueue catching(int... signals) {
    SignalQueue q = new SignalQueue();
    for (int s : signals) {
      caught.put(s, q);
    }
    return q;
  }

  /** Delivers a signal to the command; false when it does not catch that one. */
  boolean deliver(int signal) {
    SignalQueue q = caught.get(signal);
    if (q == null) {
      return false;
    }
    q.post(signal);
    return true;
  }
}
