package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.ArrayTasks;
import org.corral.common.Hostlist;
import org.corral.common.OutputPathPattern;
import org.corral.common.SlurmDuration;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.TreePMap;

/**
 * The one transition function: {@code apply(state, command) -> state}. Pure: no clock, no I/O,
 * no randomness; the same function serves live updates and recovery (journal replay).
 * Commands were validated before they were logged, so apply is lenient about ones that no
 * longer match (a duplicate completion, a job already purged): they change nothing.
 */
public final class StateMachine {
  /** Priority of a job that is not held, until the scheduling issue brings real factors. */
  public static final int DEFAULT_PRIORITY = 1;
  /**
   * A requeued job may start again this long after its last run ended: Slurm 22.05 shows it
   * pending with Reason=BeginTime and EligibleTime = end + 121 s (measured), so that nothing of
   * the previous run (an epilog, a late credential) meets the next one.
   */
  public static final long REQUEUE_DELAY_S = 121;
  /** The raw status Slurm keeps for a job the OOM killer ended (SIG_OOM): shown as ExitCode 0:125. */
  public static final int OOM_EXIT_STATUS = 253;

  private StateMachine() {}

  /**
   * The state after {@code c}. A durable command that changes what accounting records of a job
   * also puts the job's new record in the accounting outbox ({@link AccountingRecords}).
   */
  public static ClusterState apply(ClusterState s, Command c) {
    ClusterState next = change(s, c);
    return c.durable() && next != s ? AccountingRecords.record(s, next, c) : next;
  }

  /**
   * An ended job leaves the controller; the reservation it ran in keeps when it ended, so that
   * PURGE_COMP still counts the reservation idle from then.
   */
  private static ClusterState purge(ClusterState s, Command.PurgeJob cmd) {
    ClusterState out = s.withJobs(s.jobs().minus(cmd.jobId()), s.lastUpdate());
    JobInfo j = s.job(cmd.jobId()).map(JobRecord::getInfo).orElse(null);
    if (j == null || j.getReservation().isEmpty()) {
      return out;
    }
    return out.reservations().named(j.getReservation())
        .filter(r -> r.getLastJobEnd() < j.getEndTime())
        .map(r -> out.withReservations(out.reservations().replaced(r.toBuilder().setLastJobEnd(j.getEndTime()).build()),
            out.lastUpdate()))
        .orElse(out);
  }

  static ClusterState change(ClusterState s, Command c) {
    return switch (c) {
      case Command.SubmitJob cmd -> submit(s, cmd);
      case Command.StartJob cmd -> start(s, cmd);
      case Command.JobEnded cmd -> ended(s, cmd);
      case Command.CancelJob cmd -> cancel(s, cmd);
      case Command.TimeoutJob cmd -> endEarly(s, cmd.jobId(), cmd.time(), JobState.TIMEOUT);
      case Command.LaunchFailed cmd -> launchFailed(s, cmd);
      case Command.HoldJob cmd -> hold(s, cmd);
      case Command.PurgeJob cmd -> purge(s, cmd);
      case Command.NodeRegistered cmd -> registered(s, cmd);
      case Command.NodeGres cmd -> nodeGres(s, cmd);
      case Command.NodeDown cmd -> nodeDown(s, cmd);
      case Command.UpdateNode cmd -> NodeUpdates.apply(s, cmd);
      case Command.RequeueJob cmd -> requeue(s, cmd);
      case Command.WarnSignalSent cmd -> warned(s, cmd);
      case Command.SuspendJob cmd -> SuspendTransitions.suspend(s, cmd);
      case Command.PreemptJob cmd -> SuspendTransitions.preempt(s, cmd);
      case Command.JobEnding cmd -> ending(s, cmd);
      case Command.EpilogNodes cmd -> epilogNodes(s, cmd);
      case Command.NodeHeard cmd -> heard(s, cmd);
      case Command.SetPendingStatus cmd -> pendingStatus(s, cmd);
      case Command.SetPriorities cmd -> priorities(s, cmd);
      case Command.StartArrayTask cmd -> startArrayTask(s, cmd);
      case Command.CancelArrayTask cmd -> cancelArrayTask(s, cmd);
      case Command.UpdateJob cmd -> updateJob(s, cmd);
      case Command.DeadlineJob cmd -> deadline(s, cmd);
      case Command.JobIdUsed cmd -> s.withNextJobIdAtLeast(cmd.jobId() + 1);
      case Command.AcctShipped cmd -> s.withOutbox(s.outbox().shipped(cmd.through()));
      case Command.LoadConfig cmd -> loadConfig(s, cmd);
      case Command.SetPartitions cmd -> PartitionTable.set(s, cmd.partitions(), cmd.time());
      case Command.StepCreated cmd -> StepTransitions.created(s, cmd);
      case Command.StepNodeDone cmd -> StepTransitions.nodeDone(s, cmd);
      case Command.StepCancelled cmd -> StepTransitions.cancelled(s, cmd);
      case Command.CreateReservation cmd -> s.withReservations(s.reservations().plus(cmd.reservation()), cmd.time());
      case Command.UpdateReservation cmd ->
          s.withReservations(s.reservations().replaced(cmd.reservation()), cmd.time());
      case Command.DeleteReservation cmd -> s.withReservations(s.reservations().minus(cmd.name()), cmd.time());
    };
  }

  private static ClusterState submit(ClusterState s, Command.SubmitJob c) {
    if (s.jobs().containsKey(c.jobId())) {
      return s;
    }
    JobSpec spec = c.spec();
    boolean held = spec.getHold();
    int minNodes = spec.hasMinNodes() ? Math.max(1, spec.getMinNodes()) : 1;
    int tasks = spec.hasNumTasks() ? spec.getNumTasks() : minNodes; // a task per node at least
    int cpt = spec.hasCpusPerTask() ? spec.getCpusPerTask() : 1;
    JobInfo.Builder info = JobInfo.newBuilder()
        .setJobId(c.jobId())
        .setName(spec.getName())
        .setUserId(c.userId())
        .setUserName(c.userName())
        .setGroupId(c.groupId())
        .setGroupName(c.groupName())
        .setPartition(spec.getPartition())
        .setAccount(spec.getAccount())
        .setQos(spec.getQos())
        .setReservation(spec.getReservation())
        .setState(JobState.PENDING)
        .setStateReason(held ? "JobHeldUser" : "None")
        .setPriority(held ? 0 : DEFAULT_PRIORITY)
        .setUserHeld(held)
        .setSubmitTime(c.time())
        .setEligibleTime(Math.max(c.time(), spec.getBeginTime()))
        .setTimeLimitMin(spec.hasTimeLimitMin() ? spec.getTimeLimitMin() : (int) SlurmDuration.INFINITE)
        .setNumNodes(spec.hasMinNodes() ? spec.getMinNodes() : 1)
        .setMinNodes(spec.hasMinNodes() ? spec.getMinNodes() : 1)
        .setMaxNodes(spec.hasMaxNodes() ? spec.getMaxNodes() : 0)
        .setNumTasks(tasks)
        .setCpusPerTask(cpt)
        .setNumCpus(Math.max(spec.getOvercommit() ? minNodes * cpt : tasks * cpt,
            minNodes * spec.getMinCpusPerNode()))
        .setOvercommit(spec.getOvercommit())
        .setMinCpusPerNode(spec.getMinCpusPerNode())
        .setMemPerNodeMb(spec.hasMemPerNodeMb() ? spec.getMemPerNodeMb() : 0)
        .setMemPerCpuMb(spec.hasMemPerCpuMb() ? spec.getMemPerCpuMb() : 0)
        .setExclusive(spec.getExclusive())
        .setOversubscribe(spec.getOversubscribe())
        .setExclusiveUser(spec.getExclusiveUser())
        .setContiguous(spec.getContiguous())
        .setWorkDir(spec.getWorkDir())
        .setStdOut(shownPath(spec.getStdOut(), spec, c.jobId(), c.userName(), -1))
        .setStdErr(shownPath(spec.getStdErr().isEmpty() ? spec.getStdOut() : spec.getStdErr(), spec, c.jobId(),
            c.userName(), -1))
        .setStdIn(spec.getStdIn().isEmpty() ? "/dev/null" : spec.getStdIn())
        .setCommand(spec.getCommand())
        .setRequeue(spec.hasRequeue() && spec.getRequeue())
        .setDependency(spec.getDependency())
        .setSubmitHost(spec.getSubmitHost())
        .setComment(spec.getComment())
        .setWckey(spec.getWckey())
        .setNtasksPerNode(spec.hasNtasksPerNode() ? spec.getNtasksPerNode() : 0)
        .setNice(spec.getNice())
        .setAllocSid(spec.getAllocSid())
        .setInteractive(spec.getInteractive())
        .setReqNodes(spec.getReqNodes())
        .setExcNodes(spec.getExcNodes())
        .setFeatures(spec.getConstraint())
        .setDeadline(spec.getDeadline())
        .setTresPerNode(spec.getTresPerNode())
        .setTresPerJob(spec.getTresPerJob())
        .setTresPerTask(spec.getTresPerTask())
        .setCpusPerTres(spec.getCpusPerTres())
        .setMemPerTres(spec.getMemPerTres())
        .setGresFlags(spec.getGresFlags())
        .setLicenses(spec.getLicenses());
    if (!spec.getArray().isEmpty()) {
      ArrayTasks array = ArrayTasks.fromString(spec.getArray());
      info.setArrayJobId(c.jobId()).setArrayTasks(array.toString()).setArrayThrottle(array.throttle());
    }
    s.partition(spec.getPartition()).ifPresent(p -> info.setReqBilling(JobBilling.requested(info.build(), p)));
    JobRecord rec = JobRecord.newBuilder().setInfo(info).setSpec(spec).build();
    ClusterState next = s.withJobs(s.jobs().plus(c.jobId(), rec), c.time());
    return next.withNextJobIdAtLeast(c.jobId() + 1);
  }

  private static ClusterState start(ClusterState s, Command.StartJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.isSchedulable(rec.getInfo()) || c.allocation().isEmpty()) {
      return s;
    }
    JobInfo j = rec.getInfo();
    List<String> names = c.allocation().stream().map(NodeAllocation::getNode).toList();
    int cpus = c.allocation().stream().mapToInt(NodeAllocation::getCpus).sum();
    long limit = Integer.toUnsignedLong(j.getTimeLimitMin());
    JobInfo started = j.toBuilder()
        .setState(JobState.RUNNING)
        .setStateReason("None")
        .setStartTime(c.time())
        .setLastSchedEval(c.time())
        .setEndTime(limit == SlurmDuration.INFINITE ? 0 : c.time() + limit * 60)
        .setNodes(Hostlist.compress(names))
        .setNumNodes(names.size())
        .setNumCpus(cpus)
        .setBatchHost(names.get(0))
        .clearAllocation()
        .addAllAllocation(c.allocation())
        .setReservation(c.reservation().isEmpty() ? j.getReservation() : c.reservation())
        .build();
    PartitionInfo part = s.partition(j.getPartition()).orElse(null);
    if (part != null) {
      started = started.toBuilder().setBilling(JobBilling.allocated(started, part)).build();
    }
    PMap<String, NodeInfo> nodes = adjust(s.nodes(), c.allocation(), +1, c.time());
    return s.withNodes(nodes, c.time()).withJobs(s.jobs().plus(c.jobId(), with(rec, started)), c.time());
  }

  private static ClusterState ended(ClusterState s, Command.JobEnded c) {
    s = SuspendTransitions.wake(s, c.jobId(), c.time());
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.holdsResources(rec.getInfo())) {
      return s;
    }
    JobInfo j = rec.getInfo();
    if (JobStates.isQueued(j)) { // requeued: its last run is over, it may pend again
      ClusterState freed = release(s, j, c.time());
      return freed.withJobs(freed.jobs().plus(c.jobId(), with(rec, backInQueue(j, c.time()))), c.time());
    }
    if (c.usage() != null) {
      rec = rec.toBuilder().setBatchUsage(c.usage()).build();
    }
    JobInfo.Builder b = j.toBuilder().setCompleting(false).setExitStatus(c.exitStatus());
    if (c.outOfMemory() && (j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED)) {
      // Slurm 22.05 records an OOM-killed job with the raw status SIG_OOM: ExitCode 0:125.
      b.setState(JobState.OUT_OF_MEMORY).setStateReason("OutOfMemory").setExitStatus(OOM_EXIT_STATUS)
          .setEndTime(c.time());
    } else if (j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED) {
      b.setState(c.exitStatus() == 0 ? JobState.COMPLETED : JobState.FAILED)
          .setStateReason(c.exitStatus() == 0 ? "None" : "NonZeroExitCode")
          .setEndTime(c.time());
    }
    if (j.getEpilogNodesCount() > 0) {
      // Its other nodes' Epilogs still run: those nodes stay the job's, it stays COMPLETING.
      List<NodeAllocation> done = new ArrayList<>();
      List<NodeAllocation> held = new ArrayList<>();
      for (NodeAllocation a : j.getAllocationList()) {
        (j.getEpilogNodesList().contains(a.getNode()) ? held : done).add(a);
      }
      ClusterState freed = s.withNodes(adjust(s.nodes(), done, -1, c.time()), c.time());
      b.setCompleting(true).clearAllocation().addAllAllocation(held);
      return freed.withJobs(freed.jobs().plus(c.jobId(), with(rec, b.build())), c.time());
    }
    ClusterState freed = release(s, j, c.time());
    return freed.withJobs(freed.jobs().plus(c.jobId(), with(rec, b.build())), c.time());
  }

  /**
   * Whose Epilog still runs: recorded as the job ends; nodes that report leave the list and
   * the job; the last one completes the job.
   */
  private static ClusterState epilogNodes(ClusterState s, Command.EpilogNodes c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.holdsResources(rec.getInfo())) {
      return s;
    }
    JobInfo j = rec.getInfo();
    if (!JobStates.isFinished(j) || !j.getCompleting() || j.getEpilogNodesCount() == 0) {
      // Still running (its end is being logged with this): only remember the list.
      JobInfo next = j.toBuilder().clearEpilogNodes().addAllEpilogNodes(c.nodes()).build();
      return s.withJobs(s.jobs().plus(c.jobId(), with(rec, next)), s.lastUpdate());
    }
    // The batch host stays until its own end report (JobEnded), which may come later.
    List<NodeAllocation> done = new ArrayList<>();
    List<NodeAllocation> held = new ArrayList<>();
    for (NodeAllocation a : j.getAllocationList()) {
      boolean keep = c.nodes().contains(a.getNode()) || a.getNode().equals(j.getBatchHost());
      (keep ? held : done).add(a);
    }
    ClusterState freed = s.withNodes(adjust(s.nodes(), done, -1, c.time()), c.time());
    JobInfo next = j.toBuilder().clearEpilogNodes().addAllEpilogNodes(c.nodes())
        .clearAllocation().addAllAllocation(held).setCompleting(!held.isEmpty()).build();
    return freed.withJobs(freed.jobs().plus(c.jobId(), with(rec, next)), c.time());
  }

  /**
   * Cancel or time limit: pending jobs end at once; running batch jobs complete when their batch
   * host says so; an allocation (srun, salloc) has no batch host and completes at once.
   */
  static ClusterState endEarly(ClusterState s, int jobId, long time, JobState state) {
    JobRecord rec = s.jobs().get(jobId);
    if (rec == null || JobStates.isFinished(rec.getInfo())) {
      return s;
    }
    s = SuspendTransitions.wake(s, jobId, time);
    rec = s.jobs().get(jobId);
    JobInfo j = rec.getInfo();
    boolean running = JobStates.holdsResources(j);
    boolean waitsForNode = running && !rec.getSpec().getInteractive();
    JobInfo.Builder b = j.toBuilder().setState(state).setEndTime(time).setCompleting(waitsForNode);
    if (!running) {
      b.setStartTime(time).setStateReason(j.getStateReason());
    }
    if (state == JobState.TIMEOUT) {
      b.setStateReason("TimeLimit");
    } else if (state == JobState.DEADLINE) {
      b.setStateReason("DeadLine");
    }
    ClusterState out = running && !waitsForNode ? release(s, j, time) : s;
    return out.withJobs(out.jobs().plus(jobId, with(rec, b.build())), time);
  }

  private static ClusterState cancel(ClusterState s, Command.CancelJob c) {
    ClusterState next = endEarly(s, c.jobId(), c.time(), JobState.CANCELLED);
    if (next == s) {
      return s;
    }
    JobRecord rec = next.jobs().get(c.jobId());
    JobInfo info = rec.getInfo().toBuilder().setCancelled(true).setCancelledBy(c.byUid()).build();
    return next.withJobs(next.jobs().plus(c.jobId(), with(rec, info)), next.lastUpdate());
  }

  private static ClusterState launchFailed(ClusterState s, Command.LaunchFailed c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.holdsResources(rec.getInfo())) {
      return s;
    }
    JobInfo j = rec.getInfo();
    JobInfo failed = j.toBuilder().setState(JobState.FAILED).setCompleting(false)
        .setStateReason("JobLaunchFailure").setEndTime(c.time()).setExitStatus(1 << 8).build();
    ClusterState freed = release(s, j, c.time());
    return freed.withJobs(freed.jobs().plus(c.jobId(), with(rec, failed)), c.time());
  }

  /**
   * hold/uhold/release of a pending job, or of a running one: as in Slurm, a running job keeps
   * running with priority 0 and the hold's reason until released (a requeue then keeps it held).
   */
  private static ClusterState hold(ClusterState s, Command.HoldJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.isHoldable(rec.getInfo())) {
      return s;
    }
    JobInfo.Builder b = rec.getInfo().toBuilder();
    if (c.release()) {
      if (JobStates.isQueued(rec.getInfo())) {
        b.setState(JobState.PENDING); // out of SPECIAL_EXIT too
      }
      b.setPriority(DEFAULT_PRIORITY).setUserHeld(false).setStateReason("None")
          .clearPriorityFactors(); // recalculated by the next scheduling pass
    } else {
      b.setPriority(0).setUserHeld(c.userHold())
          .setStateReason(c.userHold() ? "JobHeldUser" : "JobHeldAdmin");
    }
    return s.withJobs(s.jobs().plus(c.jobId(), with(rec, b.build())), s.lastUpdate());
  }

  private static ClusterState registered(ClusterState s, Command.NodeRegistered c) {
    NodeInfo n = s.nodes().get(c.node());
    if (n == null) {
      return s;
    }
    NodeInfo up = n.toBuilder()
        .setBaseState(NodeBaseState.NODE_IDLE)
        .setNotResponding(false)
        .setReason(n.getDrain() || n.getFail() ? n.getReason() : "")
        .setReasonTime(n.getDrain() || n.getFail() ? n.getReasonTime() : 0)
        .setBootTime(c.bootTime())
        .setSlurmdStartTime(c.slurmdStartTime())
        .setVersion(c.version())
        .setOs(c.os())
        .setArch(c.arch())
        .setLastHeard(c.time())
        .setLastBusy(n.getLastBusy() > 0 ? n.getLastBusy() : c.time()) // Slurm: registered idle
        .build();
    return s.withNodes(s.nodes().plus(c.node(), up), c.time());
  }

  /** The generic resources a node reported: what the planner hands out there from now on. */
  private static ClusterState nodeGres(ClusterState s, Command.NodeGres c) {
    NodeInfo n = s.nodes().get(c.node());
    if (n == null) {
      return s;
    }
    NodeInfo up = n.toBuilder().clearGresSlots().addAllGresSlots(c.slots()).build();
    return s.withNodes(s.nodes().plus(c.node(), up), c.time());
  }

  private static ClusterState heard(ClusterState s, Command.NodeHeard c) {
    NodeInfo n = s.nodes().get(c.node());
    if (n == null) {
      return s;
    }
    NodeInfo.Builder b = n.toBuilder().setLastHeard(c.time()).setCpuLoad(c.cpuLoad())
        .setFreeMemMb(c.freeMemMb());
    if (n.getBaseState() != NodeBaseState.NODE_DOWN) {
      b.setNotResponding(false);
    }
    return s.withNodes(s.nodes().plus(c.node(), b.build()), s.lastUpdate());
  }

  /** A node is gone: it goes DOWN and its jobs end NODE_FAIL, or return to the queue if allowed. */
  static ClusterState nodeDown(ClusterState s, Command.NodeDown c) {
    NodeInfo n = s.nodes().get(c.node());
    if (n == null) {
      return s;
    }
    ClusterState out = s.withNodes(s.nodes().plus(c.node(), n.toBuilder()
        .setBaseState(NodeBaseState.NODE_DOWN)
        .setNotResponding(c.reason().equals(NodeReasons.NOT_RESPONDING))
        .setReason(c.reason())
        .setReasonTime(c.time())
        .build()), c.time());
    for (JobRecord job : s.jobs().values()) {
      if (!JobStates.holdsResources(job.getInfo()) || !runsOn(job.getInfo(), c.node())) {
        continue;
      }
      out = SuspendTransitions.wake(out, job.getInfo().getJobId(), c.time()); // its CPUs held again, then freed
      JobRecord rec = out.jobs().get(job.getInfo().getJobId());
      JobInfo j = rec.getInfo();
      out = release(out, j, c.time());
      JobInfo.Builder b = j.toBuilder().setCompleting(false).clearAllocation();
      if (JobStates.isQueued(j)) { // requeued already, its run now over
        b = backInQueue(j, c.time()).toBuilder();
      } else if (j.getRequeue() && !j.getCompleting() && !j.getInteractive()) { // batch jobs only
        b = backInQueue(j.toBuilder().setRestartCount(j.getRestartCount() + 1)
            .setStateReason("None").build(), c.time()).toBuilder();
      } else if (!JobStates.isFinished(j)) {
        b.setState(JobState.NODE_FAIL).setEndTime(c.time()).setExitStatus(0);
      }
      out = out.withJobs(out.jobs().plus(j.getJobId(), with(rec, b.build())), c.time());
    }
    return out;
  }

  /**
   * Requeue: a job holding resources pends at once but stays COMPLETING until its node reports
   * the end ({@link #ended}); one that has ended goes straight back to the queue.
   */
  private static ClusterState requeue(ClusterState s, Command.RequeueJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || (JobStates.isQueued(rec.getInfo()) && !rec.getInfo().getCompleting())) {
      return s;
    }
    s = SuspendTransitions.wake(s, c.jobId(), c.time());
    rec = s.jobs().get(c.jobId());
    JobInfo j = rec.getInfo();
    JobInfo.Builder b = j.toBuilder()
        .setState(c.specialExit() ? JobState.SPECIAL_EXIT : JobState.PENDING)
        .setCompleting(JobStates.holdsResources(j))
        .setRestartCount(j.getRestartCount() + 1).setExitStatus(0)
        .setStateReason(c.hold() ? c.heldReason() : "None");
    if (c.hold()) {
      b.setPriority(0).setUserHeld(c.userHold());
    }
    JobInfo requeued = b.build();
    if (!JobStates.holdsResources(j)) {
      requeued = backInQueue(requeued, c.time());
    }
    return s.withJobs(s.jobs().plus(c.jobId(), with(rec, requeued)), c.time());
  }

  /** A requeued job whose previous run is over: pending again, eligible after the delay. */
  private static JobInfo backInQueue(JobInfo j, long time) {
    boolean held = j.getPriority() == 0;
    JobState queued = j.getState() == JobState.SPECIAL_EXIT ? JobState.SPECIAL_EXIT : JobState.PENDING;
    return j.toBuilder().setState(queued).setCompleting(false).clearAllocation()
        .setStartTime(0).setEndTime(0).setNodes("").setBatchHost("").setNumNodes(j.getMinNodes())
        .clearPriorityFactors().setSchedNodes("").setSubmitTime(time).setEligibleTime(time + REQUEUE_DELAY_S)
        .setStateReason(held ? j.getStateReason() : "BeginTime").setWarnSignalSent(false).build();
  }

  /** The script ended, the Epilog runs: the end state shows now, the resources stay held. */
  private static ClusterState ending(ClusterState s, Command.JobEnding c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || rec.getInfo().getCompleting() || !runsOn(rec.getInfo(), c.node())
        || (rec.getInfo().getState() != JobState.RUNNING && rec.getInfo().getState() != JobState.SUSPENDED)) {
      return s;
    }
    JobInfo j = rec.getInfo().toBuilder()
        .setState(c.exitStatus() == 0 ? JobState.COMPLETED : JobState.FAILED)
        .setStateReason(c.exitStatus() == 0 ? "None" : "NonZeroExitCode")
        .setExitStatus(c.exitStatus()).setEndTime(c.time()).setCompleting(true).build();
    return s.withJobs(s.jobs().plus(c.jobId(), with(rec, j)), c.time());
  }

  private static ClusterState warned(ClusterState s, Command.WarnSignalSent c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null) {
      return s;
    }
    return s.withJobs(s.jobs().plus(c.jobId(),
        with(rec, rec.getInfo().toBuilder().setWarnSignalSent(true).build())), s.lastUpdate());
  }

  private static ClusterState pendingStatus(ClusterState s, Command.SetPendingStatus c) {
    TreePMap<Integer, JobRecord> jobs = s.jobs();
    for (Map.Entry<Integer, Waiting> e : c.waiting().entrySet()) {
      JobRecord rec = jobs.get(e.getKey());
      if (rec != null && JobStates.isPending(rec.getInfo())) {
        Waiting w = e.getValue();
        jobs = jobs.plus(e.getKey(), with(rec, rec.getInfo().toBuilder().setStateReason(w.reason())
            .setStartTime(w.expectedStart()).setSchedNodes(w.schedNodes())
            .setLastSchedEval(c.time()).build()));
      }
    }
    return s.withJobs(jobs, s.lastUpdate());
  }

  /** New priorities for pending jobs that are neither held nor fixed by an administrator. */
  private static ClusterState priorities(ClusterState s, Command.SetPriorities c) {
    TreePMap<Integer, JobRecord> jobs = s.jobs();
    for (Map.Entry<Integer, Command.JobPriority> e : c.priorities().entrySet()) {
      JobRecord rec = jobs.get(e.getKey());
      if (rec == null || !JobStates.isPending(rec.getInfo())) {
        continue;
      }
      JobInfo j = rec.getInfo();
      JobInfo.Builder b = j.toBuilder().setPriorityFactors(e.getValue().factors());
      if (j.getPriority() != 0 && !j.getAdminPriority()) {
        b.setPriority(e.getValue().priority());
      }
      jobs = jobs.plus(e.getKey(), with(rec, b.build()));
    }
    return s.withJobs(jobs, s.lastUpdate());
  }

  private static ClusterState loadConfig(ClusterState s, Command.LoadConfig c) {
    Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    List<String> order = new ArrayList<>();
    for (NodeInfo configured : c.nodes()) {
      NodeInfo old = s.nodes().get(configured.getName());
      NodeInfo.Builder b = configured.toBuilder();
      if (old != null) { // keep what the node's life so far established
        b.setBaseState(old.getBaseState()).setDrain(old.getDrain() || configured.getDrain()).setFail(old.getFail())
            .setNotResponding(old.getNotResponding()).setReason(old.getReason())
            .setReasonTime(old.getReasonTime()).setReasonUid(old.getReasonUid())
            .setBootTime(old.getBootTime()).setSlurmdStartTime(old.getSlurmdStartTime())
            .setVersion(old.getVersion()).setOs(old.getOs()).setArch(old.getArch())
            .setLastHeard(Math.max(old.getLastHeard(), c.time()));
        if (old.getGres().equals(configured.getGres()) && old.getGresSlotsCount() > 0) {
          b.clearGresSlots().addAllGresSlots(old.getGresSlotsList()); // as the node reported them
        }
      } else {
        b.setLastHeard(c.time());
      }
      nodes.put(configured.getName(), b.setAllocCpus(0).setAllocMemMb(0).setRunningJobs(0).clearGresUsed().build());
      order.add(configured.getName());
    }
    PMap<String, NodeInfo> pnodes = HashTreePMap.from(nodes);
    ClusterState out = new ClusterState(s.jobs(), pnodes, List.copyOf(order),
        List.copyOf(c.partitions()), s.nextJobId(), Math.max(s.lastUpdate(), c.time()), s.outbox(),
        s.reservations());
    // Allocations are derived from the jobs holding resources, so they survive a restart.
    for (JobRecord rec : s.jobs().values()) {
      if (JobStates.holdsResources(rec.getInfo())) {
        out = out.withNodes(adjust(out.nodes(), rec.getInfo().getAllocationList(), +1, 0), 0);
      }
    }
    return out;
  }

  // ---- helpers

  /** An output path as scontrol shows it: absolute, patterns filled in but the node's (%N). */
  /** A std path as scontrol shows it; an array's default is slurm-%A_%a.out, as in Slurm. */
  private static String shownPath(String pattern, JobSpec spec, int jobId, String user, int arrayTask) {
    boolean array = !spec.getArray().isEmpty();
    String p = !pattern.isEmpty() ? pattern : defaultOutput(spec);
    var fields = new OutputPathPattern.Fields(jobId, spec.getName(), user, null);
    return OutputPathPattern.resolve(spec.getWorkDir(), p, array ? fields.inArray(jobId, arrayTask) : fields);
  }

  /** The output file pattern of a job that names none: slurm-%j.out (slurm-%A_%a.out in an array). */
  static String defaultOutput(JobSpec spec) {
    return spec.getArray().isEmpty() ? "slurm-%j.out" : "slurm-%A_%a.out";
  }

  /**
   * Task {@code c.taskId()} of an array starts: split off the array's record as a job of its own,
   * or, the last one, the array's record itself.
   */
  private static ClusterState startArrayTask(ClusterState s, Command.StartArrayTask c) {
    JobRecord meta = s.jobs().get(c.arrayJobId());
    if (meta == null || !JobStates.isSchedulable(meta.getInfo()) || meta.getInfo().getArrayTasks().isEmpty()) {
      return s;
    }
    ArrayTasks tasks = ArrayTasks.fromString(meta.getInfo().getArrayTasks());
    if (!tasks.contains(c.taskId())) {
      return s;
    }
    ArrayTasks rest = tasks.without(c.taskId());
    JobSpec spec = meta.getSpec();
    String out = spec.getStdOut();
    String err = spec.getStdErr().isEmpty() ? out : spec.getStdErr();
    JobInfo task = meta.getInfo().toBuilder().setJobId(c.jobId()).setArrayTaskId(c.taskId()).setArrayTasks("")
        .setStdOut(taskPath(out, spec, c, meta.getInfo().getUserName()))
        .setStdErr(taskPath(err, spec, c, meta.getInfo().getUserName())).build();
    ClusterState next;
    if (rest.isEmpty()) {
      next = s.withJobs(s.jobs().plus(c.arrayJobId(), with(meta, task.toBuilder().setJobId(c.arrayJobId()).build())),
          c.time());
      return start(next, new Command.StartJob(c.arrayJobId(), c.time(), c.allocation()));
    }
    JobRecord metaLeft = with(meta, meta.getInfo().toBuilder().setArrayTasks(rest.toString()).build());
    JobRecord split = meta.toBuilder().setInfo(task).build();
    next = s.withJobs(s.jobs().plus(c.arrayJobId(), metaLeft).plus(c.jobId(), split), c.time());
    next = next.withNextJobIdAtLeast(c.jobId() + 1);
    return start(next, new Command.StartJob(c.jobId(), c.time(), c.allocation()));
  }

  private static ClusterState deadline(ClusterState s, Command.DeadlineJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || !JobStates.isPending(rec.getInfo())) {
      return s;
    }
    return endEarly(s, c.jobId(), c.time(), JobState.DEADLINE);
  }

  /** scontrol update JobId=: the changes were checked before they were logged. */
  private static ClusterState updateJob(ClusterState s, Command.UpdateJob c) {
    JobRecord rec = s.jobs().get(c.jobId());
    if (rec == null || JobStates.isFinished(rec.getInfo())) {
      return s;
    }
    JobInfo j = rec.getInfo();
    JobInfo.Builder b = j.toBuilder();
    for (Map.Entry<String, String> e : c.changes().entrySet()) {
      String v = e.getValue();
      switch (e.getKey()) {
        case "priority" -> b.setPriority((int) Long.parseLong(v)).setAdminPriority(true);
        case "nice" -> {
          b.setNice(Integer.parseInt(v));
          if (!j.getAdminPriority()) {
            b.clearPriorityFactors(); // recalculated by the next scheduling pass
          }
        }
        case "timelimit" -> {
          int limit = (int) Long.parseLong(v);
          b.setTimeLimitMin(limit);
          if (j.getStartTime() > 0 && !JobStates.isPending(j)) {
            b.setEndTime(Integer.toUnsignedLong(limit) == SlurmDuration.INFINITE ? 0
                : j.getStartTime() + Integer.toUnsignedLong(limit) * 60);
          }
        }
        case "jobname" -> b.setName(v);
        case "comment" -> b.setComment(v);
        case "dependency" -> b.setDependency(v).setStateReason("None"); // evaluated afresh
        case "starttime" -> b.setEligibleTime(Long.parseLong(v)).setStartTime(Long.parseLong(v)).setSchedNodes("");
        default -> { } // checked before logging; an unknown key from a newer version changes nothing
      }
    }
    return s.withJobs(s.jobs().plus(c.jobId(), with(rec, b.build())), c.time());
  }

  /** A pending task leaves its array; the last one takes the array's record with it (cancelled). */
  private static ClusterState cancelArrayTask(ClusterState s, Command.CancelArrayTask c) {
    JobRecord meta = s.jobs().get(c.arrayJobId());
    if (meta == null || !JobStates.isPending(meta.getInfo()) || meta.getInfo().getArrayTasks().isEmpty()) {
      return s;
    }
    ArrayTasks tasks = ArrayTasks.fromString(meta.getInfo().getArrayTasks());
    if (!tasks.contains(c.taskId())) {
      return s;
    }
    ArrayTasks rest = tasks.without(c.taskId());
    JobInfo.Builder b = meta.getInfo().toBuilder().setArrayTasks(rest.toString());
    if (rest.isEmpty()) {
      b.setArrayTaskId(c.taskId());
    }
    ClusterState next = s.withJobs(s.jobs().plus(c.arrayJobId(), with(meta, b.build())), c.time());
    return rest.isEmpty() ? apply(next, new Command.CancelJob(c.arrayJobId(), c.time(), c.byUid())) : next;
  }

  private static String taskPath(String pattern, JobSpec spec, Command.StartArrayTask c, String user) {
    String p = pattern.isEmpty() ? "slurm-%A_%a.out" : pattern;
    var fields = new OutputPathPattern.Fields(c.jobId(), spec.getName(), user, null).inArray(c.arrayJobId(), c.taskId());
    return OutputPathPattern.resolve(spec.getWorkDir(), p, fields);
  }

  static boolean runsOn(JobInfo j, String node) {
    return j.getAllocationList().stream().anyMatch(a -> a.getNode().equals(node));
  }

  static ClusterState release(ClusterState s, JobInfo j, long time) {
    return s.withNodes(adjust(s.nodes(), j.getAllocationList(), -1, time), time);
  }

  private static PMap<String, NodeInfo> adjust(PMap<String, NodeInfo> nodes,
      List<NodeAllocation> alloc, int sign, long time) {
    Set<String> seen = new HashSet<>();
    Map<String, NodeInfo> changed = new HashMap<>();
    for (NodeAllocation a : alloc) {
      NodeInfo n = changed.getOrDefault(a.getNode(), nodes.get(a.getNode()));
      if (n == null) {
        continue;
      }
      NodeInfo.Builder b = n.toBuilder()
          .setAllocCpus(Math.max(0, n.getAllocCpus() + sign * a.getCpus()))
          .setAllocMemMb(Math.max(0, n.getAllocMemMb() + sign * a.getMemMb()));
      if (a.getGresCount() > 0) {
        b.clearGresUsed().addAllGresUsed(org.corral.protocol.Gres.plus(n.getGresUsedList(), a.getGresList(), sign));
      }
      if (seen.add(a.getNode())) {
        b.setRunningJobs(Math.max(0, n.getRunningJobs() + sign));
      }
      if (sign < 0 && time > 0) {
        b.setLastBusy(time);
      }
      changed.put(a.getNode(), b.build());
    }
    return nodes.plusAll(changed);
  }

  static JobRecord with(JobRecord rec, JobInfo info) {
    if (info.getSubmitTime() != rec.getInfo().getSubmitTime() && rec.getInfo().getSubmitTime() != 0) {
      // back in the queue (requeued): the next run keeps nothing of the last one's steps and usage,
      // which stay with that run's accounting record, as in Slurm
      return rec.toBuilder().clearSteps().clearBatchUsage().setInfo(info).build();
    }
    return StepTransitions.closeWithJob(rec, info).toBuilder().setInfo(info).build();
  }
}
