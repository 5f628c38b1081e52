package org.corral.ctld.runtime;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.corral.common.config.AccountingConfig;
import org.corral.ctld.state.Command;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctEventsRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * Ships the accounting outbox to slurmdbd in event order and, once slurmdbd says they are
 * durable, journals that they left ({@link Command.AcctShipped}). Until then they stay in the
 * controller's state, snapshots included: slurmdbd or its database may be away for hours and
 * nothing is lost; what was sent but not acknowledged goes again, and slurmdbd ignores repeats.
 * With accounting off (AccountingStorageType=accounting_storage/none) events are let go at once.
 */
final class AccountingShipper implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final int BATCH = 1000;
  private static final long MAX_BACKOFF_MS = 10_000;
  private static final long GATHER_MS = 200;

  private final StateWriter writer;
  private final String cluster;
  private final RpcChannel dbd; // null: accounting off
  private final Semaphore wake = new Semaphore(0);
  private final Thread thread;
  private volatile boolean running = true;

  AccountingShipper(StateWriter writer, String cluster, AccountingConfig cfg, Credentials creds) {
    this.writer = writer;
    this.cluster = cluster;
    this.dbd = cfg.enabled() ? new TcpChannel(cfg.host(), cfg.port(), "slurmdbd", creds, Duration.ofSeconds(30)) : null;
    this.thread = Thread.ofPlatform().name("accounting").daemon().start(this::loop);
  }

  /** Something may have entered the outbox. */
  void trigger() {
    if (wake.availablePermits() == 0) {
      wake.release();
    }
  }

  private void loop() {
    long backoffMs = 0;
    boolean warned = false;
    while (running) {
      try {
        wake.tryAcquire(backoffMs > 0 ? backoffMs : 1000, TimeUnit.MILLISECONDS);
        if (!running) {
          return;
        }
        List<AcctEvent> batch = writer.current().outbox().oldest(BATCH);
        if (batch.isEmpty()) {
          continue;
        }
        if (batch.size() < BATCH) {
          // Let a busy moment's events gather: one round trip and one AcctShipped per batch,
          // not per change, is what keeps accounting from halving the submission rate.
          Thread.sleep(GATHER_MS);
          batch = writer.current().outbox().oldest(BATCH);
        }
        long through = dbd == null ? batch.get(batch.size() - 1).getEventId() : send(batch);
        writer.submit(s -> Decision.of(null, new Command.AcctShipped(through))).get();
        if (warned) {
          LOG.log(Level.INFO, "slurmdbd is back: accounting records are being stored again");
          warned = false;
        }
        backoffMs = 0;
        if (batch.size() == BATCH) {
          trigger(); // more waiting
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (!warned) {
          LOG.log(Level.WARNING, "cannot store accounting records in slurmdbd (they are kept and sent again): "
              + (e instanceof ExecutionException ? e.getCause() : e));
          warned = true;
        }
        backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(500, backoffMs * 2));
      }
    }
  }

  private long send(List<AcctEvent> batch) throws java.io.IOException {
    Response r = dbd.call(Request.newBuilder().setAcctEvents(AcctEventsRequest.newBuilder()
        .setCluster(cluster).addAllEvents(batch)).build());
    if (r.getErrorCode() != 0) {
      throw new java.io.IOException("slurmdbd: " + r.getErrorMessage());
    }
    return r.getAcctEvents().getStoredThrough();
  }

  @Override
  public void close() {
    running = false;
    trigger();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
