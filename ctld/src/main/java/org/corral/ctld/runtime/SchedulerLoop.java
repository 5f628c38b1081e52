package org.corral.ctld.runtime;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.corral.ctld.sched.Plan;
import org.corral.ctld.sched.PlanCheck;
import org.corral.ctld.sched.Planner;
import org.corral.common.config.PreemptConfig;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.LimitCheck;
import org.corral.ctld.sched.limits.TimeUsage;
import org.corral.protocol.msg.JobState;
import org.corral.ctld.sched.priority.PriorityPass;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;

/**
 * Runs the planner off the writer thread whenever something changed (and every few seconds):
 * priorities first (new jobs at once, all every PriorityCalcPeriod), then the plan, which it
 * hands to the writer, which re-checks it against the newest state and commits.
 * Wake-ups that arrive while planning collapse into one more pass.
 */
final class SchedulerLoop implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final Semaphore wake = new Semaphore(0);
  private final StateWriter writer;
  private final JobOrders orders;
  private final Clock clock;
  private final SchedulingConfig cfg;
  private final PriorityPass priorities;
  private final ControllerStats stats;
  private final AssociationCache associations;
  private final java.util.Map<String, Integer> licenses;
  private final PreemptConfig preempt;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param usageFile where fairshare's usage is kept across restarts
   * @param licenses the cluster's licenses (slurm.conf Licenses=)
   */
  SchedulerLoop(StateWriter writer, JobOrders orders, Clock clock, SchedulingConfig cfg, ControllerStats stats,
      AssociationCache associations, java.nio.file.Path usageFile, java.util.Map<String, Integer> licenses,
      PreemptConfig preempt) {
    this.preempt = preempt;
    this.associations = associations;
    this.licenses = licenses;
    this.stats = stats;
    this.writer = writer;
    this.orders = orders;
    this.clock = clock;
    this.cfg = cfg;
    this.priorities = new PriorityPass(cfg, usageFile);
    this.thread = Thread.ofPlatform().name("scheduler").daemon().start(this::loop);
  }

  /** The shares and usage of the last priority pass (sshare). */
  org.corral.ctld.sched.priority.ShareTree shares() {
    return priorities.shares();
  }

  void trigger() {
    if (wake.availablePermits() == 0) {
      wake.release();
    }
  }

  private void loop() {
    while (running) {
      try {
        wake.tryAcquire(5, TimeUnit.SECONDS);
        wake.drainPermits();
        if (!running) {
          return;
        }
        long now = clock.instant().getEpochSecond();
        ClusterState current = writer.current();
        Command.SetPriorities prio = priorities.recalc(current, now, associations.current());
        long t0 = System.nanoTime();
        ClusterState planned = prio == null ? current : StateMachine.apply(current, prio);
        AssocTree tree = associations.current();
        TimeUsage used = tree.hasTimeLimits() ? priorities.timeUsage(planned, now) : TimeUsage.NONE;
        LimitCheck limits = LimitCheck.of(planned, tree, associations.limits(), used, now);
        java.util.Map<Integer, String> exhausted = limits.exhausted(planned);
        Plan plan = Planner.plan(planned, now, cfg, limits, licenses, preempt, tree);
        stats.pass((System.nanoTime() - t0) / 1000, plan.depth(), plan.starts().size() + plan.waiting().size(),
            plan.waiting().values().stream().anyMatch(w -> !w.schedNodes().isEmpty()), plan.backfilled(), now);
        writer.submit(s -> {
          List<Command> cmds = new ArrayList<>();
          if (prio != null) {
            cmds.add(prio);
          }
          cmds.addAll(PlanCheck.accept(s, plan, now));
          List<Runnable> launches = new ArrayList<>();
          exhausted.forEach((id, why) -> s.job(id).filter(r -> r.getInfo().getState() == JobState.RUNNING)
              .ifPresent(r -> { // its Grp*Mins are used up: Slurm times it out (acct_policy_job_time_out)
                cmds.add(new Command.TimeoutJob(id, now));
                launches.addAll(orders.signal(r.getInfo(), 0));
                launches.add(() -> LOG.log(Level.INFO, "job " + id + " timed out: " + why));
              }));
          for (Command c : cmds) {
            if (c instanceof Command.StartJob start) {
              launches.add(orders.launch(s, start.jobId()));
            } else if (c instanceof Command.StartArrayTask task) {
              launches.add(orders.launch(s, task.jobId()));
            } else if (c instanceof Command.PreemptJob p) {
              s.job(p.jobId()).ifPresent(r -> launches.addAll(orders.effects(r.getInfo(), c)));
            } else if (c instanceof Command.SuspendJob p) {
              s.job(p.jobId()).ifPresent(r -> launches.addAll(orders.effects(r.getInfo(), c)));
            }
          }
          return new Decision<>(cmds, null, launches);
        }).get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.log(Level.ERROR, "scheduling pass failed: " + e, e);
      }
    }
  }

  @Override
  public void close() {
    running = false;
    wake.release();
    thread.interrupt();
  }
}
