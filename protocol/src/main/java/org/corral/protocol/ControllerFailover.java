package org.corral.protocol;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.function.LongSupplier;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * Reaches whichever of several controllers leads, as Slurm's clients do with backup controllers:
 * each SlurmctldHost in turn, going on to the next when one cannot be reached or answers that it
 * stands by (ESLURM_IN_STANDBY_MODE), round after round until {@code patienceMs} have passed
 * (a takeover takes a few seconds). The one that last answered is tried first next time.
 *
 * <p>A request whose connection broke mid-call is sent again to the next controller: requests
 * that change state are either refused by a controller that does not lead or were committed by
 * the group, so a submission carries an idempotency key to be answered once.
 */
public final class ControllerFailover implements RpcChannel {
  private static final long ROUND_PAUSE_MS = 200;

  private final List<RpcChannel> controllers;
  private final long patienceMs;
  private final LongSupplier clock;
  private volatile int preferred;

  public ControllerFailover(List<RpcChannel> controllers, long patienceMs) {
    this(controllers, patienceMs, System::currentTimeMillis);
  }

  ControllerFailover(List<RpcChannel> controllers, long patienceMs, LongSupplier clock) {
    if (controllers.isEmpty()) {
      throw new IllegalArgumentException("no controllers");
    }
    this.controllers = List.copyOf(controllers);
    this.patienceMs = patienceMs;
    this.clock = clock;
  }

  /**
   * How a daemon (slurmd, slurmrestd) reaches the controller over TCP: the one SlurmctldHost's
   * address, or each of several in turn.
   */
  public static RpcChannel overTcp(org.corral.common.config.SlurmConfig cfg, Credentials creds,
      java.time.Duration timeout) {
    if (!cfg.replicatedControllers()) {
      return new TcpChannel(cfg.controllerAddr(), cfg.slurmctldPort(), "slurmctld", creds, timeout);
    }
    return new ControllerFailover(cfg.controllers().stream()
        .<RpcChannel>map(h -> new TcpChannel(h.addr(), cfg.slurmctldPort(), "slurmctld", creds, timeout))
        .toList(),
        Math.max(timeout.toMillis(), 30_000));
  }

  @Override
  public Response call(Request request) throws IOException {
    request = withSubmitKey(request);
    long deadline = clock.getAsLong() + patienceMs;
    IOException lastFailure = null;
    Response lastStandby = null;
    while (true) {
      int first = preferred;
      for (int i = 0; i < controllers.size(); i++) {
        int at = (first + i) % controllers.size();
        try {
          Response r = controllers.get(at).call(request);
          if (!standsBy(r)) {
            preferred = at;
            return r;
          }
          lastStandby = r;
        } catch (InterruptedIOException e) {
          throw e;
        } catch (IOException e) {
          lastFailure = e;
        }
      }
      if (clock.getAsLong() >= deadline) {
        if (lastStandby != null) {
          return lastStandby;
        }
        throw lastFailure;
      }
      try {
        Thread.sleep(ROUND_PAUSE_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while looking for the controller that leads");
      }
    }
  }

  /** A submission gets an idempotency key before its first try, so that every retry carries the same. */
  static Request withSubmitKey(Request request) {
    if (!request.hasSubmitJob() || !request.getSubmitJob().getSpec().getSubmitKey().isEmpty()) {
      return request;
    }
    var submit = request.getSubmitJob();
    return request.toBuilder().setSubmitJob(submit.toBuilder().setSpec(
        submit.getSpec().toBuilder().setSubmitKey(java.util.UUID.randomUUID().toString()))).build();
  }

  private static boolean standsBy(Response r) {
    return r.getErrorCode() == SlurmError.IN_STANDBY_MODE.code()
        || r.getErrorCode() == SlurmError.IN_STANDBY_USE_BACKUP.code();
  }
}
