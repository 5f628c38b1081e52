package org.corral.ctld.runtime;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.ctld.sched.GangSchedule;
import org.corral.ctld.sched.ReservationCalendar;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.NodeReasons;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.SignalScope;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;
import org.corral.common.SlurmDuration;

/**
 * Once a second: jobs past their time limit end TIMEOUT (their nodes are told to kill them),
 * steps past theirs are cancelled, allocations whose srun/salloc is gone are revoked,
 * nodes silent for SlurmdTimeout go DOWN, ended jobs older than MinJobAge are purged, and
 * reservations that ended roll forward (DAILY, WEEKLY) or go, ending the jobs still in them,
 * PURGE_COMP reservations idle for their time go,
 * and with gang scheduling, jobs sharing CPUs take their turns.
 */
final class Housekeeper implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("housekeeper").daemon().unstarted(r));
  private final StateWriter writer;
  private final JobOrders orders;
  private final StepOrders steps;
  private final AllocationClients clients;
  private final Clock clock;
  private final int slurmdTimeout;
  private final int minJobAge;
  private final long gangSliceS;
  private final Predicate<NodeInfo> answers;

  /**
   * @param gangSliceS SchedulerTimeSlice with PreemptMode GANG; 0: no gang scheduling
   * @param answers whether a node's daemon answers the controller's own ping: a node silent for
   *     SlurmdTimeout that does is kept (its heartbeats were lost on the way, not its daemon)
   */
  Housekeeper(StateWriter writer, JobOrders orders, StepOrders steps, AllocationClients clients, Clock clock,
      int slurmdTimeout, int minJobAge, long gangSliceS, Predicate<NodeInfo> answers) {
    this.gangSliceS = gangSliceS;
    this.answers = answers;
    this.writer = writer;
    this.clients = clients;
    this.orders = orders;
    this.steps = steps;
    this.clock = clock;
    this.slurmdTimeout = slurmdTimeout;
    this.minJobAge = minJobAge;
    timer.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
  }

  /** One round; an error is logged and the next round comes anyway (an escaping one would end them all). */
  private void tick() {
    try {
      round();
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "housekeeping round failed: " + e, e);
    } catch (Error e) { // the executor would swallow it and run no round again: time limits, node timeouts gone
      org.corral.common.FailFast.halt("the housekeeper", e);
    }
  }

  private void round() {
    long now = clock.instant().getEpochSecond();
    // Looking at processes is I/O (/proc): done here, once, never on the writer thread.
    Set<Integer> abandoned = abandonedAllocations(writer.current());
    Set<String> answering = answeringSilentNodes(writer.current(), now);
    if (!decide(writer.current(), now, abandoned, answering).commands().isEmpty()) {
      writer.submit(s -> decide(s, now, abandoned, answering));
    }
  }

  /** Nodes about to be declared dead for silence that answer a ping: asked all at once. */
  private Set<String> answeringSilentNodes(ClusterState s, long now) {
    List<NodeInfo> silent = new ArrayList<>();
    for (NodeInfo n : s.nodesInOrder()) {
      if (slurmdTimeout > 0 && silentTooLong(n, now)) {
        silent.add(n);
      }
    }
    Set<String> out = java.util.concurrent.ConcurrentHashMap.newKeySet();
    List<Thread> asking = new ArrayList<>();
    for (NodeInfo n : silent) {
      asking.add(Thread.ofVirtual().name("ping-" + n.getName()).start(() -> {
        if (answers.test(n)) {
          out.add(n.getName());
        }
      }));
    }
    for (Thread t : asking) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return out;
  }

  private boolean silentTooLong(NodeInfo n, long now) {
    return n.getBaseState() == NodeBaseState.NODE_IDLE && n.getLastHeard() + slurmdTimeout < now;
  }

  /** Allocations still running or pending whose srun/salloc process is gone. */
  private Set<Integer> abandonedAllocations(ClusterState s) {
    Set<Integer> out = new HashSet<>();
    for (JobRecord r : s.jobs().values()) {
      if (r.getSpec().getInteractive() && !JobStates.isFinished(r.getInfo()) && clients.gone(r.getSpec())) {
        out.add(r.getInfo().getJobId());
      }
    }
    return out;
  }

  Decision<Void> decide(ClusterState s, long now, Set<Integer> abandoned) {
    return decide(s, now, abandoned, Set.of());
  }

  /**
   * @param abandoned allocations whose srun/salloc process is gone: they are revoked
   * @param answering silent nodes that answered the controller's ping: heard, not declared dead
   */
  Decision<Void> decide(ClusterState s, long now, Set<Integer> abandoned, Set<String> answering) {
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!JobStates.isFinished(j) && abandoned.contains(j.getJobId())) {
        cmds.add(new Command.CancelJob(j.getJobId(), now, 0));
        effects.add(() -> LOG.log(Level.INFO, "job " + j.getJobId()
            + ": its srun/salloc process is gone; allocation revoked"));
        if (JobStates.holdsResources(j)) {
          effects.addAll(orders.signal(j, 0));
        }
        continue;
      }
      if ((j.getState() == JobState.RUNNING || j.getGangSuspended()) && !j.getPreempting().isEmpty()
          && j.getEndTime() <= now) {
        Command end = new Command.PreemptJob(j.getJobId(), now, j.getPreempting(), 0); // its GraceTime is over
        cmds.add(end);
        effects.addAll(orders.effects(j, end));
      } else if (j.getState() == JobState.RUNNING && (j.getEndTime() > 0 && j.getEndTime() <= now
          || ReservationCalendar.outlived(s, j, now))) {
        cmds.add(new Command.TimeoutJob(j.getJobId(), now));
        effects.addAll(orders.signal(j, 0));
      } else if (j.getState() == JobState.RUNNING) {
        if (WarnSignals.due(r, now)) {
          cmds.add(new Command.WarnSignalSent(j.getJobId()));
          effects.addAll(r.getSpec().getWarnBatchOnly()
              ? orders.signal(j, r.getSpec().getWarnSignal(), SignalScope.SIGNAL_BATCH_SHELL)
              : steps.signalRunning(r, r.getSpec().getWarnSignal()));
        }
        for (StepRecord st : r.getStepsList()) {
          StepInfo step = st.getInfo();
          long limit = Integer.toUnsignedLong(step.getTimeLimitMin());
          if (step.getState() == JobState.RUNNING && !step.getCancelled() && limit != SlurmDuration.INFINITE
              && step.getStartTime() + limit * 60 <= now) {
            cmds.add(new Command.StepCancelled(j.getJobId(), step.getStepId(), now));
            effects.addAll(steps.signal(step, 0));
          }
        }
      } else if (minJobAge > 0 && JobStates.isFinished(j) && !j.getCompleting()
          && j.getEndTime() + minJobAge <= now) {
        cmds.add(new Command.PurgeJob(j.getJobId()));
      }
    }
    cmds.addAll(ReservationCalendar.due(s, now));
    cmds.addAll(ReservationCalendar.idle(s, now));
    if (gangSliceS > 0) {
      for (Command c : GangSchedule.turns(s, now, gangSliceS)) {
        cmds.add(c);
        s.job(((Command.SuspendJob) c).jobId()).ifPresent(r -> effects.addAll(orders.effects(r.getInfo(), c)));
      }
    }
    if (slurmdTimeout > 0) {
      for (NodeInfo n : s.nodesInOrder()) {
        if (!silentTooLong(n, now)) {
          continue;
        }
        if (answering.contains(n.getName())) {
          cmds.add(new Command.NodeHeard(n.getName(), now, n.getCpuLoad(), n.getFreeMemMb()));
          effects.add(() -> LOG.log(Level.WARNING, "node " + n.getName() + ": no heartbeat for "
              + (now - n.getLastHeard()) + " s, but it answers the controller's ping: kept in service"));
        } else {
          cmds.add(new Command.NodeDown(n.getName(), now, NodeReasons.NOT_RESPONDING));
        }
      }
    }
    return new Decision<>(cmds, null, effects);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
