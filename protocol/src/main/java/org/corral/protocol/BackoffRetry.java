package org.corral.protocol;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * A channel that does what Slurm's commands do when the controller rate-limits them
 * (SLURMCTLD_COMMUNICATIONS_BACKOFF): sleep one second more after each refusal, then send the
 * same request again, until it is answered.
 */
public final class BackoffRetry implements RpcChannel {
  /** How a wait is spent (tests replace it). */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private final RpcChannel inner;
  private final Sleeper sleeper;

  public BackoffRetry(RpcChannel inner) {
    this(inner, Thread::sleep);
  }

  public BackoffRetry(RpcChannel inner, Sleeper sleeper) {
    this.inner = inner;
    this.sleeper = sleeper;
  }

  @Override
  public Response call(Request request) throws IOException {
    for (int limited = 1; ; limited++) {
      Response r = inner.call(request);
      if (r.getErrorCode() != SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code()) {
        return r;
      }
      try {
        sleeper.sleep(1000L * limited);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while backing off");
      }
    }
  }
}
