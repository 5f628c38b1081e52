package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.journal.JobIdHighWater;
import org.corral.ctld.journal.StateLog;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.SnapshotCodec;
import org.corral.ctld.state.StateMachine;

/**
 * The one thread that owns the controller's state. Requests hand it a decision function; it
 * runs each against the newest state, applies the resulting commands, appends the durable ones
 * to the state log, and commits once for the whole batch (group commit) before anyone is answered
 * or any effect (a message to a node) goes out. A decision's commands are applied all or none:
 * one that cannot be applied leaves the state, the log and the observers as they were.
 * The writer does not know which {@link StateLog} it has (local journal, replicated, memory).
 * Readers take {@link #current()}: an immutable
 * state that is always durable, so a query never waits for the writer nor sees unsynced data.
 */
public final class StateWriter implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final int MAX_BATCH = 4096;
  private static final long SNAPSHOT_BYTES = 32L << 20;

  private record Proposal<T>(Function<ClusterState, Decision<T>> decide, CompletableFuture<T> done) {}

  private final BlockingQueue<Proposal<?>> queue = new LinkedBlockingQueue<>();
  private final StateLog log;
  /** Moved past every job id before the batch that handed it out is acknowledged. */
  private final JobIdHighWater highWater;
  private final Runnable onChange;
  private final ExecutorService effects = Executors.newVirtualThreadPerTaskExecutor();
  private final Thread thread;
  private final long snapshotBytes;
  private final ExecutorService snapshotter =
      Executors.newSingleThreadExecutor(Thread.ofPlatform().name("state-snapshot").daemon().factory());
  private volatile StateLog.PendingSnapshot snapshotting; // set and cleared by the writer thread
  private Future<?> snapshotWrite;
  private volatile ClusterState published;
  private volatile boolean running = true;
  private ClusterState state;

  /**
   * @param onChange called (on the writer thread, must be quick) after each batch that changed
   *     jobs or nodes, e.g. to wake the scheduler
   */
  public StateWriter(ClusterState recovered, StateLog log, JobIdHighWater highWater, Runnable onChange) {
    this(recovered, log, highWater, onChange, SNAPSHOT_BYTES);
  }

  /** @param snapshotBytes journal bytes after which a snapshot is written */
  StateWriter(ClusterState recovered, StateLog log, JobIdHighWater highWater, Runnable onChange,
      long snapshotBytes) {
    this.snapshotBytes = snapshotBytes;
    this.highWater = highWater;
    this.state = recovered;
    this.published = recovered;
    this.log = log;
    this.onChange = onChange;
    this.thread = Thread.ofPlatform().name("state-writer").start(this::loop);
  }

  public ClusterState current() {
    return published;
  }

  /** Hears each command the writer applies, with the states before and after (on the writer thread). */
  public interface Observer {
    void applied(ClusterState before, ClusterState after, Command c);

    /** Both observers, this one first. */
    default Observer andThen(Observer next) {
      return (before, after, c) -> {
        applied(before, after, c);
        next.applied(before, after, c);
      };
    }
  }

  private volatile Observer observer;

  /** Sets the one observer (sdiag's counters); it must be quick. */
  public void observe(Observer o) {
    this.observer = o;
  }

  private volatile JobData jobData;

  /** Follows job records' references to scripts and environments, deleting freed ones once durable. */
  public void keep(JobData data) {
    this.jobData = data;
  }

  /** Runs {@code decide} on the writer thread; completes once its commands are durable. */
  public <T> CompletableFuture<T> submit(Function<ClusterState, Decision<T>> decide) {
    CompletableFuture<T> f = new CompletableFuture<>();
    if (!running) {
      f.completeExceptionally(refusal());
      return f;
    }
    queue.add(new Proposal<>(decide, f));
    return f;
  }

  private void loop() {
    List<Proposal<?>> batch = new ArrayList<>();
    while (running || !queue.isEmpty()) {
      try {
        Proposal<?> first = queue.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
        if (first == null) {
          finishSnapshot();
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        process(batch);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (StateLog.NotLeaderException e) {
        stepDown(batch, e);
        return;
      } catch (IOException e) {
        // Nothing may be acknowledged that is not durable: stop rather than go on.
        LOG.log(Level.ERROR, "journal write failed, stopping: " + e);
        for (Proposal<?> p : batch) {
          p.done().completeExceptionally(e);
        }
        Runtime.getRuntime().halt(1);
      } finally {
        batch.clear();
      }
    }
  }

  private volatile Runnable demoted = () -> { };
  private volatile boolean steppedDown;

  private RuntimeException refusal() {
    return steppedDown ? new SlurmException(org.corral.common.SlurmError.IN_STANDBY_MODE)
        : new IllegalStateException("controller is shutting down");
  }

  private void refuseQueued() {
    for (Proposal<?> p; (p = queue.poll()) != null; ) {
      p.done().completeExceptionally(refusal());
    }
  }

  /** Called (on a thread of its own) once the log says this controller no longer leads. */
  public void onDemotion(Runnable r) {
    this.demoted = r;
  }

  /**
   * The log's leader is elsewhere now: this state may hold commands that never commit, so the
   * writer stops; what waits is refused with Slurm's standby error, which clients take as "try
   * the next controller" (writer thread).
   */
  private void stepDown(List<Proposal<?>> batch, StateLog.NotLeaderException e) {
    LOG.log(Level.WARNING, "no longer the leader (" + e.getMessage() + "); stopping to serve");
    steppedDown = true;
    running = false;
    for (Proposal<?> p : batch) {
      p.done().completeExceptionally(refusal());
    }
    refuseQueued();
    Thread.ofPlatform().name("state-writer-demotion").start(demoted);
  }

  private void process(List<Proposal<?>> batch) throws IOException {
    List<Runnable> after = new ArrayList<>();
    List<Object> replies = new ArrayList<>(batch.size());
    boolean changed = false;
    for (Proposal<?> p : batch) {
      try {
        Decision<?> d = p.decide().apply(state);
        List<Applied> applied = applyAll(d.commands());
        for (Applied a : applied) { // every command applied: now the decision takes effect
          Observer o = observer;
          if (o != null) {
            o.applied(a.before(), a.after(), a.command());
          }
          JobData data = jobData;
          if (data != null) {
            data.applied(a.before(), a.after(), a.command());
          }
          if (a.record() != null) {
            log.append(a.record());
          }
          changed |= a.command().changesSchedulingInput();
        }
        if (!applied.isEmpty()) {
          state = applied.get(applied.size() - 1).after();
        }
        after.addAll(d.effects());
        replies.add(d.reply());
      } catch (RuntimeException e) {
        replies.add(e);
      }
    }
    if (highWater != null) {
      highWater.cover(state.nextJobId());
    }
    log.commit();
    published = state;
    JobData data = jobData;
    if (data != null) {
      for (String freed : data.takeUnreferenced()) { // their purges are durable now
        after.add(() -> data.deleteIfUnused(freed));
      }
    }
    for (int i = 0; i < batch.size(); i++) {
      complete(batch.get(i), replies.get(i));
    }
    for (Runnable r : after) {
      effects.execute(r);
    }
    if (changed) {
      onChange.run();
    }
    finishSnapshot();
    if (log.writerSnapshots() && snapshotting == null && log.bytesSinceSnapshot() > snapshotBytes) {
      startSnapshot();
    }
  }

  private record Applied(ClusterState before, ClusterState after, Command command, byte[] record) {}

  /** Applies a decision's commands to a copy of the state; throws, changing nothing, if one fails. */
  private List<Applied> applyAll(List<Command> commands) {
    List<Applied> out = new ArrayList<>(commands.size());
    ClusterState s = state;
    for (Command c : commands) {
      ClusterState next = StateMachine.apply(s, c);
      out.add(new Applied(s, next, c, c.durable() ? CommandCodec.encode(c) : null));
      s = next;
    }
    return out;
  }

  /**
   * Snapshots the state as of the last journal entry on a thread of its own: the state is an
   * immutable version, streamed to the file while the writer goes on (writer thread).
   */
  private void startSnapshot() throws IOException {
    long index = log.lastIndex();
    ClusterState s = state;
    StateLog.PendingSnapshot p = log.startSnapshot(index);
    snapshotting = p;
    snapshotWrite = snapshotter.submit(() -> {
      long t0 = System.nanoTime();
      try {
        p.write(out -> SnapshotCodec.write(s, index, out));
        LOG.log(Level.INFO, "snapshot written at journal index " + index + " (" + s.jobs().size() + " jobs) in "
            + (System.nanoTime() - t0) / 1_000_000 + " ms");
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "snapshot at journal index " + index + " failed (the journal keeps everything): " + e);
      }
    });
  }

  /** Takes a snapshot written meanwhile as the newest (writer thread). */
  private void finishSnapshot() throws IOException {
    StateLog.PendingSnapshot p = snapshotting;
    if (p != null && snapshotWrite.isDone()) {
      log.finishSnapshot(p);
      snapshotting = null;
    }
  }

  /** Whether a snapshot is being written now. */
  boolean snapshotInProgress() {
    return snapshotting != null;
  }

  @SuppressWarnings("unchecked")
  private static <T> void complete(Proposal<T> p, Object reply) {
    if (reply instanceof RuntimeException e) {
      p.done().completeExceptionally(e);
    } else {
      p.done().complete((T) reply);
    }
  }

  /** Writes a snapshot of the state as of the last journal entry, once the writer has stopped. */
  private void finalSnapshot() throws IOException {
    if (!log.writerSnapshots()) {
      return;
    }
    if (snapshotWrite != null) {
      try {
        snapshotWrite.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (java.util.concurrent.ExecutionException e) {
        // logged by the snapshot thread
      }
      finishSnapshot();
    }
    long index = log.lastIndex();
    StateLog.PendingSnapshot p = log.startSnapshot(index);
    p.write(out -> SnapshotCodec.write(state, index, out));
    log.finishSnapshot(p);
    LOG.log(Level.INFO, "snapshot written at journal index " + index);
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (!thread.isAlive()) {
        finalSnapshot();
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "final snapshot failed: " + e);
    }
    refuseQueued();
    effects.shutdown();
    snapshotter.shutdown();
  }
}
