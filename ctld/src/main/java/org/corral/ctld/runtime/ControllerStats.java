package org.corral.ctld.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import org.corral.ctld.metrics.Timings;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.CycleStats;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.RpcStat;
import org.corral.protocol.msg.StatsReply;

/**
 * What sdiag reports, counted since the controller started or since `sdiag -r`: jobs submitted,
 * started and ended by outcome (seen as the writer applies commands), scheduling passes (time,
 * depth, queue length, starts made by backfill), and RPCs by message type and by user.
 * Thread-safe; each update is a few additions under a lock.
 */
final class ControllerStats implements StateWriter.Observer {
  private final UserDirectory users;
  private final Timings timings;
  private long since;
  private long submitted;
  private long started;
  private long completed;
  private long canceled;
  private long failed;
  private CycleStats.Builder main = CycleStats.newBuilder();
  private CycleStats.Builder backfill = CycleStats.newBuilder();
  private long backfilledSinceStart;
  private long backfilled;
  private long lastBackfill;
  private final Map<String, long[]> byType = new LinkedHashMap<>(); // name -> {number, count, µs}
  private final Map<Integer, long[]> byUser = new LinkedHashMap<>(); // uid -> {count, µs}

  private final java.util.concurrent.atomic.AtomicInteger serving = new java.util.concurrent.atomic.AtomicInteger();

  /** A request starts (+1) or ends (-1) being served: sdiag's server thread count. */
  void serving(int delta) {
    serving.addAndGet(delta);
  }

  ControllerStats(long now, UserDirectory users, Timings timings) {
    this.since = now;
    this.users = users;
    this.timings = timings;
  }

  /** The user's name, or the uid as a number when it has none. */
  String userName(int uid) {
    return users.userName(uid).orElse(Integer.toUnsignedString(uid));
  }

  @Override
  public synchronized void applied(ClusterState before, ClusterState after, Command c) {
    switch (c) {
      case Command.SubmitJob x -> submitted++;
      case Command.StartJob x -> started++;
      case Command.StartArrayTask x -> started++;
      case Command.JobEnded x -> ended(before, after, x.jobId());
      case Command.JobEnding x -> ended(before, after, x.jobId());
      case Command.CancelJob x -> ended(before, after, x.jobId());
      case Command.TimeoutJob x -> ended(before, after, x.jobId());
      case Command.LaunchFailed x -> ended(before, after, x.jobId());
      case Command.DeadlineJob x -> ended(before, after, x.jobId());
      case Command.CancelArrayTask x -> canceled++;
      default -> { }
    }
  }

  private void ended(ClusterState before, ClusterState after, int jobId) {
    JobRecord was = before.jobs().get(jobId);
    JobRecord is = after.jobs().get(jobId);
    if (was == null || is == null || JobStates.isFinished(was.getInfo()) || !JobStates.isFinished(is.getInfo())) {
      return;
    }
    JobState state = is.getInfo().getState();
    if (state == JobState.COMPLETED) {
      completed++;
    } else if (state == JobState.CANCELLED) {
      canceled++;
    } else {
      failed++;
    }
  }

  /**
   * A scheduling pass: how long it took, how many jobs it looked at, how many were queued,
   * whether it planned any job for later (a backfill pass) and how many it started around one.
   */
  synchronized void pass(long micros, int depth, int queue, boolean planned, int backfilledStarts, long now) {
    timings.schedulerPass(micros * 1000, planned);
    add(main, micros, depth, queue);
    if (planned) {
      add(backfill, micros, depth, queue);
      lastBackfill = now;
    }
    backfilled += backfilledStarts;
    backfilledSinceStart += backfilledStarts;
  }

  private static void add(CycleStats.Builder c, long micros, int depth, int queue) {
    c.setLastUs(micros).setMaxUs(Math.max(c.getMaxUs(), micros)).setTotalUs(c.getTotalUs() + micros)
        .setCount(c.getCount() + 1).setLastDepth(depth).setDepthTotal(c.getDepthTotal() + depth)
        .setLastQueue(queue).setQueueTotal(c.getQueueTotal() + queue);
  }

  synchronized void rpc(String name, int number, int uid, long micros) {
    timings.rpc(name, uid, micros * 1000);
    long[] t = byType.computeIfAbsent(name, k -> new long[] {number, 0, 0});
    t[1]++;
    t[2] += micros;
    long[] u = byUser.computeIfAbsent(uid, k -> new long[2]);
    u[0]++;
    u[1] += micros;
  }

  /** sdiag -r: everything starts again except the backfilled total since start, as in Slurm. */
  synchronized void reset(long now) {
    since = now;
    submitted = started = completed = canceled = failed = backfilled = 0;
    main = CycleStats.newBuilder().setLastUs(main.getLastUs());
    backfill = CycleStats.newBuilder();
    byType.clear();
    byUser.clear();
  }

  synchronized StatsReply snapshot(ClusterState s, long now) {
    int pending = 0;
    int running = 0;
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getState() == JobState.PENDING) {
        pending++;
      } else if (j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED) {
        running++;
      }
    }
    StatsReply.Builder b = StatsReply.newBuilder().setNow(now).setSince(since)
        .setServerThreads(serving.get()).setJobsSubmitted(submitted).setJobsStarted(started)
        .setJobsCompleted(completed).setJobsCanceled(canceled).setJobsFailed(failed)
        .setJobsPending(pending).setJobsRunning(running).setMain(main).setBackfill(backfill)
        .setBackfilledSinceStart(backfilledSinceStart).setBackfilled(backfilled)
        .setLastBackfillTime(lastBackfill);
    byType.forEach((name, t) -> b.addByType(RpcStat.newBuilder().setName(name).setId((int) t[0])
        .setCount(t[1]).setTotalUs(t[2])));
    byUser.forEach((uid, u) -> b.addByUser(RpcStat.newBuilder()
        .setName(userName(uid)).setId(uid)
        .setCount(u[0]).setTotalUs(u[1])));
    return b.build();
  }
}
