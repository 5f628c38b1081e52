package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.corral.common.BillingWeights;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeEvent;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;

/**
 * What accounting keeps of a job ({@link AcctJob}), derived from the controller's record, and
 * the rule for when a change is worth an event: a durable command that changes a job's
 * accounting record puts the new record in the outbox. Only durable commands count, so replaying
 * the journal yields the same events with the same ids; fields that non-durable commands move
 * (priority, a pending job's reason) travel with events but never cause one.
 */
public final class AccountingRecords {
  private AccountingRecords() {}

  static ClusterState record(ClusterState before, ClusterState after, Command c) {
    AcctOutbox outbox = after.outbox();
    for (int id : touched(before, c)) {
      JobRecord now = after.jobs().get(id);
      if (now == null) {
        continue;
      }
      JobRecord was = before.jobs().get(id);
      if (was != null && requeuedRun(was.getInfo(), now.getInfo())) {
        outbox = outbox.add(endedRun(was, runEnd(c), after.lastUpdate()));
      }
      if (JobStates.isQueued(now.getInfo()) && now.getInfo().getCompleting()) {
        continue; // its run's record is closed; the next run's starts once the nodes are done with it
      }
      AcctJob record = of(now);
      if (was == null || !comparable(of(was)).equals(comparable(record))) {
        outbox = outbox.add(record);
      }
    }
    outbox = nodeEvents(before, after, c, outbox);
    outbox = ReservationRecords.periods(before, after, c, outbox);
    return outbox == after.outbox() ? after : after.withOutbox(outbox);
  }

  /**
   * A node that goes down or drained opens an event (Slurm's node event: state, reason, who, from
   * when); one that comes back closes it, and a change of state or reason while out does both.
   * The close names no start: slurmdbd ends whatever event of the node is still open.
   */
  private static AcctOutbox nodeEvents(ClusterState before, ClusterState after, Command c, AcctOutbox outbox) {
    String node;
    long time;
    switch (c) {
      case Command.NodeDown x -> {
        node = x.node();
        time = x.time();
      }
      case Command.UpdateNode x -> {
        node = x.node();
        time = x.time();
      }
      case Command.NodeRegistered x -> {
        node = x.node();
        time = x.time();
      }
      default -> {
        return outbox;
      }
    }
    NodeInfo was = before.nodes().get(node);
    NodeInfo now = after.nodes().get(node);
    boolean wasOut = was != null && out(was);
    boolean isOut = now != null && out(now);
    if (wasOut && isOut && eventState(was) == eventState(now) && was.getReason().equals(now.getReason())) {
      return outbox;
    }
    if (wasOut) {
      outbox = outbox.add(NodeEvent.newBuilder().setNode(node).setTimeEnd(time).build());
    }
    if (isOut) {
      outbox = outbox.add(NodeEvent.newBuilder().setNode(node).setTimeStart(time).setState(eventState(now))
          .setReason(now.getReason())
          .setReasonUid(c instanceof Command.NodeDown ? NodeEvents.BY_CONTROLLER : now.getReasonUid())
          .setTres("billing=" + now.getCpus() + ",cpu=" + now.getCpus() + ",mem=" + now.getRealMemoryMb() + "M")
          .build());
    }
    return outbox;
  }

  /** Down, drained or failed: what accounting records as a node event. */
  private static boolean out(NodeInfo n) {
    return n.getBaseState() == NodeBaseState.NODE_DOWN || n.getDrain() || n.getFail();
  }

  /** The node's state in Slurm's bits, as an event records it. */
  static int eventState(NodeInfo n) {
    int base = switch (n.getBaseState()) {
      case NODE_DOWN -> NodeEvents.DOWN;
      case NODE_FUTURE -> NodeEvents.FUTURE;
      case NODE_UNKNOWN -> 0;
      default -> n.getAllocCpus() == 0 ? NodeEvents.IDLE
          : n.getAllocCpus() >= n.getCpus() ? NodeEvents.ALLOCATED : NodeEvents.MIXED;
    };
    return base | (n.getDrain() ? NodeEvents.FLAG_DRAIN : 0) | (n.getNotResponding() ? NodeEvents.FLAG_NO_RESPOND : 0)
        | (n.getFail() ? NodeEvents.FLAG_FAIL : 0);
  }

  /** A run that ends with its job back in the queue (requeue, node failure, preemption). */
  private static boolean requeuedRun(JobInfo was, JobInfo now) {
    return (was.getState() == JobState.RUNNING || was.getState() == JobState.SUSPENDED)
        && !was.getCompleting() && JobStates.isQueued(now);
  }

  /** What the record of a requeued run says it ended in, by what ended it (as Slurm 22.05 keeps it). */
  private static JobState runEnd(Command c) {
    return switch (c) {
      case Command.PreemptJob x -> JobState.PREEMPTED;
      case Command.NodeDown x -> JobState.NODE_FAIL;
      case Command.UpdateNode x -> JobState.NODE_FAIL;
      case Command.NodeRegistered x -> JobState.NODE_FAIL;
      default -> JobState.REQUEUED;
    };
  }

  /**
   * The last record of a run that ended with its job requeued: the run's row (keyed by its submit
   * time) ends in {@code state} with ExitCode 0:0, its running steps cancelled; the batch step by
   * SIGTERM (0:15) unless its node failed. The job's next run is a row of its own (a new submit time).
   */
  static AcctJob endedRun(JobRecord run, JobState state, long time) {
    AcctJob r = of(run);
    AcctJob.Builder b = r.toBuilder().setState(state).setEndTime(time).setExitStatus(0).setReason("")
        .clearSteps();
    for (AcctStep st : r.getStepsList()) {
      if (st.getState() == JobState.RUNNING) {
        AcctStep.Builder s = st.toBuilder().setState(JobState.CANCELLED).setEndTime(time);
        if (st.getStepId() == StepIds.BATCH) {
          s.setExitStatus(state == JobState.NODE_FAIL ? 0 : 15);
        }
        b.addSteps(s);
      } else {
        b.addSteps(st);
      }
    }
    return b.build();
  }

  /** The jobs a command may change. */
  private static Set<Integer> touched(ClusterState before, Command c) {
    Set<Integer> ids = new LinkedHashSet<>();
    switch (c) {
      case Command.SubmitJob x -> ids.add(x.jobId());
      case Command.StartJob x -> ids.add(x.jobId());
      case Command.StartArrayTask x -> {
        ids.add(x.arrayJobId());
        ids.add(x.jobId());
      }
      case Command.JobEnded x -> ids.add(x.jobId());
      case Command.CancelJob x -> ids.add(x.jobId());
      case Command.HoldJob x -> ids.add(x.jobId());
      case Command.TimeoutJob x -> ids.add(x.jobId());
      case Command.LaunchFailed x -> ids.add(x.jobId());
      case Command.UpdateJob x -> ids.add(x.jobId());
      case Command.DeadlineJob x -> ids.add(x.jobId());
      case Command.CancelArrayTask x -> ids.add(x.arrayJobId());
      case Command.RequeueJob x -> ids.add(x.jobId());
      case Command.SuspendJob x -> ids.add(x.jobId());
      case Command.PreemptJob x -> ids.add(x.jobId());
      case Command.JobEnding x -> ids.add(x.jobId());
      case Command.EpilogNodes x -> ids.add(x.jobId());
      case Command.StepCreated x -> ids.add(x.step().getInfo().getJobId());
      case Command.StepNodeDone x -> ids.add(x.jobId());
      case Command.StepCancelled x -> ids.add(x.jobId());
      case Command.NodeDown x -> jobsOn(before, x.node(), ids);
      case Command.UpdateNode x -> jobsOn(before, x.node(), ids);
      case Command.NodeRegistered x -> jobsOn(before, x.node(), ids);
      default -> { }
    }
    return ids;
  }

  private static void jobsOn(ClusterState s, String node, Set<Integer> ids) {
    for (JobRecord r : s.jobs().values()) {
      if (JobStates.holdsResources(r.getInfo()) && StateMachine.runsOn(r.getInfo(), node)) {
        ids.add(r.getInfo().getJobId());
      }
    }
  }

  /** The QOS every job has until QOS come from accounting (Slurm's default QOS). */
  static final String DEFAULT_QOS = "normal";

  /**
   * A job the controller ended (cancel, time limit, deadline) records ExitCode 0:0, as Slurm's
   * does; the signal its script died of stays with the batch step.
   */
  private static boolean endedByController(JobState s) {
    return s == JobState.CANCELLED || s == JobState.TIMEOUT || s == JobState.DEADLINE
        || s == JobState.PREEMPTED;
  }

  /** Held and pending: never eligible yet (Slurm keeps no eligible time for it). */
  private static boolean heldNow(JobInfo j) {
    return j.getState() == JobState.PENDING && j.getPriority() == 0;
  }

  private static AcctJob comparable(AcctJob j) {
    return j.toBuilder().clearPriority().clearReason().build();
  }

  /** The job's accounting record. */
  public static AcctJob of(JobRecord rec) {
    JobInfo j = rec.getInfo();
    boolean finished = JobStates.isFinished(j);
    long allocMem = 0;
    for (NodeAllocation a : j.getAllocationList()) {
      allocMem += a.getMemMb();
    }
    AcctJob.Builder b = AcctJob.newBuilder()
        .setJobId(j.getJobId())
        .setArrayJobId(j.getArrayJobId())
        .setArrayTaskId(j.getArrayTaskId())
        .setArrayTasks(j.getArrayTasks())
        .setName(j.getName())
        .setUserId(j.getUserId())
        .setUserName(j.getUserName())
        .setGroupId(j.getGroupId())
        .setGroupName(j.getGroupName())
        .setAccount(j.getAccount())
        .setPartition(j.getPartition())
        .setState(j.getState())
        .setCancelled(j.getCancelled())
        .setCancelledBy(j.getCancelledBy())
        .setReason(finished ? j.getStateReason() : "")
        .setExitStatus(endedByController(j.getState()) ? 0 : j.getExitStatus())
        .setSubmitTime(j.getSubmitTime())
        .setEligibleTime(heldNow(j) ? 0 : j.getEligibleTime())
        .setQos(j.getQos().isEmpty() ? DEFAULT_QOS : j.getQos())
        .setStartTime(j.getState() == JobState.PENDING ? 0 : j.getStartTime())
        .setEndTime(finished ? j.getEndTime() : 0)
        .setTimeLimitMin(j.getTimeLimitMin())
        .setNodes(j.getNodes())
        .setNumNodes(j.getNumNodes())
        .setNumCpus(j.getNumCpus())
        .setReqCpus(j.getNumTasks() * Math.max(1, j.getCpusPerTask()))
        .setReqNodes(j.getMinNodes())
        .setNumTasks(j.getNumTasks())
        .setReqMemMb(j.getMemPerCpuMb() > 0 ? j.getMemPerCpuMb() : j.getMemPerNodeMb())
        .setMemPerCpu(j.getMemPerCpuMb() > 0)
        .setAllocMemMb(allocMem)
        .setReqGres(GresTres.requested(j))
        .setAllocGres(j.getState() == JobState.PENDING ? "" : GresTres.allocated(j))
        .setPriority(j.getPriority())
        .setWorkDir(j.getWorkDir())
        .setSubmitLine(rec.getSpec().getCommand())
        .setComment(j.getComment())
        .setWckey(j.getWckey())
        .setConstraints(j.getFeatures())
        .setReqNodeList(j.getReqNodes())
        .setExcNodeList(j.getExcNodes())
        .setRestartCount(j.getRestartCount())
        .setSuspendedS(j.getSuspendedSecs())
        .setBatchHost(j.getBatchHost())
        .setInteractive(j.getInteractive())
        .setStdOut(j.getStdOut())
        .setStdErr(j.getStdErr())
        .setStdIn(j.getStdIn())
        .setStdOutPattern(outputPattern(rec.getSpec(), j))
        .setStdErrPattern(rec.getSpec().getStdErr())
        .setStdInPattern(rec.getSpec().getStdIn())
        .setDependency(j.getDependency())
        .setCpusPerTask(j.getCpusPerTask())
        .setNtasksPerNode(j.getNtasksPerNode())
        .setSubmitHost(j.getSubmitHost());
    if (j.hasReqBilling()) {
      b.setReqBilling(BillingWeights.stored(j.getReqBilling()));
    }
    if (j.hasBilling() && j.getState() != JobState.PENDING) {
      b.setAllocBilling(BillingWeights.stored(j.getBilling()));
    }
    List<AcctStep> steps = new ArrayList<>();
    if (!j.getInteractive() && j.getStartTime() > 0 && !j.getBatchHost().isEmpty()
        && j.getState() != JobState.PENDING) {
      steps.add(batchStep(rec));
    }
    int derived = 0;
    for (StepRecord s : rec.getStepsList()) {
      AcctStep st = step(s);
      steps.add(st);
      derived = Math.max(derived, st.getExitStatus());
    }
    return b.addAllSteps(steps).setDerivedExitStatus(derived).build();
  }

  /**
   * The output pattern Slurm keeps for the job: as given, or a batch job's default in its working
   * directory ("/home/u/slurm-%j.out"); "" for an allocation that named none.
   */
  private static String outputPattern(JobSpec spec, JobInfo j) {
    if (!spec.getStdOut().isEmpty() || j.getInteractive()) {
      return spec.getStdOut();
    }
    String dir = spec.getWorkDir();
    return (dir.isEmpty() || dir.endsWith("/") ? dir : dir + "/") + StateMachine.defaultOutput(spec);
  }

  private static AcctStep batchStep(JobRecord rec) {
    JobInfo j = rec.getInfo();
    int cpus = 0;
    long mem = 0;
    for (NodeAllocation a : j.getAllocationList()) {
      if (a.getNode().equals(j.getBatchHost())) {
        cpus = a.getCpus();
        mem = a.getMemMb();
      }
    }
    if (cpus == 0) { // the allocation is released once the job is over
      cpus = j.getNumNodes() <= 1 ? j.getNumCpus() : Math.max(1, j.getNumCpus() / j.getNumNodes());
    }
    AcctStep.Builder b = AcctStep.newBuilder()
        .setStepId(StepIds.BATCH)
        .setName("batch")
        .setStartTime(j.getStartTime())
        .setNodes(j.getBatchHost())
        .setNumNodes(1)
        .setNumTasks(1)
        .setNumCpus(cpus)
        .setReqMemMb(mem)
        .setTimeLimitMin(j.getTimeLimitMin());
    if (rec.hasBatchUsage()) {
      b.setUsage(rec.getBatchUsage());
    }
    if (!JobStates.isFinished(j)) {
      return b.setState(JobState.RUNNING).build();
    }
    // The script killed by a signal is a cancelled step in Slurm's record, whoever sent it.
    boolean signalled = (j.getExitStatus() & 0x7f) != 0;
    JobState state = switch (j.getState()) {
      case CANCELLED, TIMEOUT, DEADLINE, PREEMPTED -> JobState.CANCELLED;
      case OUT_OF_MEMORY -> JobState.OUT_OF_MEMORY;
      case NODE_FAIL -> JobState.NODE_FAIL;
      default -> signalled ? JobState.CANCELLED : j.getExitStatus() == 0 ? JobState.COMPLETED : JobState.FAILED;
    };
    return b.setState(state).setExitStatus(j.getExitStatus()).setEndTime(j.getEndTime()).build();
  }

  private static AcctStep step(StepRecord r) {
    StepInfo s = r.getInfo();
    AcctStep.Builder b = AcctStep.newBuilder()
        .setStepId(s.getStepId())
        .setName(s.getName())
        .setState(s.getState())
        .setCancelled(s.getCancelled())
        .setExitStatus(s.getExitStatus())
        .setStartTime(s.getStartTime())
        .setEndTime(s.getState() == JobState.RUNNING ? 0 : s.getEndTime())
        .setNodes(s.getNodes())
        .setNumNodes(s.getNodeNamesCount())
        .setNumTasks(s.getNumTasks())
        .setNumCpus(s.getNumCpus())
        .setReqMemMb(s.getMemPerNodeMb())
        .setTimeLimitMin(s.getTimeLimitMin());
    if (r.hasUsage()) {
      b.setUsage(r.getUsage());
    }
    return b.build();
  }
}
