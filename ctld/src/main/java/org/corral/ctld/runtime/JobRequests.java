package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.Planner;
import org.corral.ctld.sched.priority.MultifactorPriority;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.state.StateMachine;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.HoldJobsRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.StepSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.WillRun;
import org.corral.protocol.msg.RequeueJobsRequest;
import org.corral.protocol.msg.SignalScope;

/** Users' job requests: submit, cancel/signal, hold/release. Each decides on the writer thread. */
final class JobRequests {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final SubmitPolicy policy;
  private final AssocPolicy assocPolicy;
  private final Authorizer auth;
  private final UserDirectory users;
  private final Clock clock;
  private final JobOrders orders;
  private final StepOrders steps;
  private final long maxJobId;
  private final SchedulingConfig scheduling;
  private final PartitionAccess partitions;

  private volatile org.corral.ctld.submit.SubmitFilters filters = org.corral.ctld.submit.SubmitFilters.NONE;

  PartitionAccess partitions() {
    return partitions;
  }

  /** The job_submit plugins and plugstack.conf filters submissions go through. */
  void useSubmitFilters(org.corral.ctld.submit.SubmitFilters filters) {
    this.filters = filters;
  }

  /**
   * Off the writer thread, first of all: the submit filters (job_submit/lua, plugins) may change
   * the job or refuse it, with their error code and their message for the user.
   */
  JobSpec filter(Peer peer, JobSpec spec, ClusterState s) {
    try {
      return filters.apply(spec, peer.uid(), peer.gid(), userName(peer), s.partitions());
    } catch (org.corral.protocol.plugin.SubmitRefusal r) {
      throw new SlurmException(r.error(), r.getMessage().isEmpty() ? r.error().message() : r.getMessage());
    }
  }

  JobRequests(SubmitPolicy policy, AssocPolicy assocPolicy, Authorizer auth, UserDirectory users, Clock clock,
      JobOrders orders, StepOrders steps, long maxJobId, SchedulingConfig scheduling) {
    this.assocPolicy = assocPolicy;
    this.scheduling = scheduling;
    this.partitions = new PartitionAccess(auth, users);
    this.policy = policy;
    this.auth = auth;
    this.users = users;
    this.clock = clock;
    this.orders = orders;
    this.steps = steps;
    this.maxJobId = maxJobId;
  }

  private long now() {
    return clock.instant().getEpochSecond();
  }

  private static String userName(Peer peer) {
    return peer.userName() != null ? peer.userName() : String.valueOf(peer.uid());
  }

  /** Off the writer thread, before {@link #submit}: what the submission needs fetched. */
  void prepare(Peer peer, JobSpec spec) {
    policy.checkSizes(spec);
    if (spec.getNice() < 0 && !auth.isAdmin(peer)) { // a higher priority is for operators, as in Slurm
      throw new SlurmException(SlurmError.INVALID_NICE);
    }
    assocPolicy.prefetch(spec, userName(peer));
  }

  /** A step's environment and command line within the submission limits; off the writer thread. */
  void prepare(StepSpec spec) {
    policy.checkSizes(spec);
  }

  private SubmitKeys submitKeys = new SubmitKeys();

  /** The idempotency keys of the state this controller starts serving from. */
  void keys(SubmitKeys keys) {
    this.submitKeys = keys;
  }

  Decision<Integer> submit(Peer peer, JobSpec spec, ClusterState s) {
    String key = spec.getSubmitKey();
    Integer made = key.isEmpty() ? null : submitKeys.find(s, peer.uid(), key);
    if (made != null) { // a retry of a submission that was committed: the same job, not a second
      return Decision.none(made);
    }
    Command.SubmitJob submit = submission(peer, spec, s);
    if (!key.isEmpty()) {
      submitKeys.remember(peer.uid(), key, submit.jobId());
    }
    return Decision.of(submit.jobId(), submit);
  }

  /**
   * sbatch --test-only: plans the job as if it had been submitted, behind the jobs ahead of it,
   * and says when and where it would start. Pure, so it runs on a published state off the
   * writer thread (a planning pass there would stall every other change); queues nothing.
   * The reply's job id is the one {@link #spendJobId} then spends.
   */
  WillRun testOnly(Peer peer, JobSpec spec, ClusterState s) {
    Command.SubmitJob submit = submission(peer, spec, s);
    int id = submit.jobId();
    long now = submit.time();
    ClusterState withJob = StateMachine.apply(s, submit);
    JobInfo job = withJob.jobs().get(id).getInfo();
    Command.JobPriority prio = new MultifactorPriority(scheduling, withJob, Map.of()).of(job, now);
    withJob = StateMachine.apply(withJob, new Command.SetPriorities(Map.of(id, prio)));
    Planner.WillRun run = Planner.willRun(withJob, id, now, scheduling);
    if (run == null || run.allocation() == null) {
      throw new SlurmException(SlurmError.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }
    WillRun reply = WillRun.newBuilder().setStartTime(run.start())
        .setCpus(run.allocation().stream().mapToInt(NodeAllocation::getCpus).sum())
        .setNodes(Hostlist.compress(run.allocation().stream().map(NodeAllocation::getNode).toList()))
        .setPartition(job.getPartition()).build();
    return reply;
  }

  /** The next job id, spent without a job (--test-only takes one, as Slurm's does). */
  Decision<Integer> spendJobId(ClusterState s) {
    int id = s.nextJobId();
    if (id >= maxJobId) {
      throw new SlurmException(SlurmError.ERROR_ON_DESC_TO_RECORD_COPY, "job ids exhausted (MaxJobId)");
    }
    return Decision.of(id, new Command.JobIdUsed(id));
  }

  private Command.SubmitJob submission(Peer peer, JobSpec spec, ClusterState s) {
    if (peer.uid() < 0) { // a daemon's credential names no user to run the job as
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    policy.admit(peer.uid());
    String user = userName(peer);
    JobSpec normalized = assocPolicy.apply(policy.normalize(spec, s), user, s);
    SlurmError denied = partitions.check(peer, s.partition(normalized.getPartition()).orElseThrow());
    if (denied != SlurmError.SUCCESS) {
      throw new SlurmException(denied);
    }
    checkReservation(normalized, user, s);
    int id = s.nextJobId();
    if (id >= maxJobId) {
      throw new SlurmException(SlurmError.ERROR_ON_DESC_TO_RECORD_COPY,
          "job ids exhausted (MaxJobId)");
    }
    String group = users.groupName(peer.gid()).orElse(String.valueOf(peer.gid()));
    Command.SubmitJob submit = new Command.SubmitJob(id, now(), peer.uid(), user, peer.gid(), group, normalized);
    if (assocPolicy.deniesOnLimit(normalized)) { // the job as the state would hold it: CPUs, nodes, time limit
      assocPolicy.denyOnLimit(StateMachine.apply(s, submit).jobs().get(id).getInfo());
    }
    return submit;
  }

  /** --reservation: it must exist and admit the user and account (Slurm checks both at submit). */
  private static void checkReservation(JobSpec spec, String user, ClusterState s) {
    if (spec.getReservation().isEmpty()) {
      return;
    }
    var r = s.reservations().named(spec.getReservation())
        .orElseThrow(() -> new SlurmException(SlurmError.RESERVATION_INVALID));
    if (!org.corral.ctld.sched.ReservationAccess.allows(r, user, spec.getAccount())) {
      throw new SlurmException(SlurmError.RESERVATION_ACCESS);
    }
  }

  Decision<JobResultsReply> cancel(Peer peer, CancelJobsRequest req, ClusterState s) {
    String user = req.getUserName();
    if (!user.isEmpty() && !user.chars().allMatch(Character::isDigit) && users.uid(user).isEmpty()) {
      throw new SlurmException(SlurmError.USER_ID_MISSING, "Invalid user name: " + user);
    }
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    if (req.getListOnly()) {
      return listOnly(peer, req, s, reply);
    }
    for (var ref : req.getArrayTasksList()) {
      arrayTask(peer, ref.getArrayJobId(), ref.getTaskId(), req, s, cmds, effects, reply);
    }
    for (JobInfo j : targets(req, s, reply)) {
      SlurmError err = cancelOne(peer, j, req.getSignal(), scope(req), cmds, effects);
      boolean kill = req.getSignal() == 0 || req.getSignal() == 9;
      if (err == SlurmError.SUCCESS && !kill && scope(req) == SignalScope.SIGNAL_STEPS) {
        effects.addAll(steps.signalRunning(s.jobs().get(j.getJobId()), req.getSignal()));
      }
      if (err != SlurmError.SUCCESS) {
        reply.addResults(result(j.getJobId(), err));
      } else if (!req.getJobIdsList().isEmpty()) {
        reply.addResults(result(j.getJobId(), SlurmError.SUCCESS));
      }
    }
    return new Decision<>(cmds, reply.build(), effects);
  }

  /**
   * scancel -i: the jobs the request names, each with SUCCESS or the reason it would fail, so
   * the user is asked only about those; nothing changes.
   */
  private Decision<JobResultsReply> listOnly(Peer peer, CancelJobsRequest req, ClusterState s,
      JobResultsReply.Builder reply) {
    for (var ref : req.getArrayTasksList()) {
      arrayTask(peer, ref.getArrayJobId(), ref.getTaskId(), req, s, new ArrayList<>(), new ArrayList<>(), reply);
    }
    for (JobInfo j : targets(req, s, reply)) {
      reply.addResults(result(j.getJobId(), JobStates.isFinished(j) ? SlurmError.ALREADY_DONE
          : auth.mayActOnJob(peer, j) ? SlurmError.SUCCESS : SlurmError.ACCESS_DENIED));
    }
    return new Decision<>(List.of(), reply.build(), List.of());
  }

  /**
   * Which processes a signal other than KILL reaches: with --batch the batch shell alone, with
   * --full the batch shell and its children (and steps), otherwise only the job's steps.
   */
  private static SignalScope scope(CancelJobsRequest req) {
    if (req.getBatchOnly()) {
      return SignalScope.SIGNAL_BATCH_SHELL;
    }
    return req.getFull() ? SignalScope.SIGNAL_ALL : SignalScope.SIGNAL_STEPS;
  }

  private SlurmError cancelOne(Peer peer, JobInfo j, int signal, SignalScope scope,
      List<Command> cmds, List<Runnable> effects) {
    if (!auth.mayActOnJob(peer, j)) {
      LOG.log(System.Logger.Level.WARNING, "Security violation: uid " + peer.uid()
          + " may not cancel job " + j.getJobId() + " of uid " + j.getUserId());
      return SlurmError.ACCESS_DENIED;
    }
    if (JobStates.isFinished(j)) {
      return SlurmError.ALREADY_DONE;
    }
    boolean kill = signal == 0 || signal == 9;
    if (j.getState() == JobState.PENDING) {
      if (!kill) {
        return SlurmError.JOB_PENDING;
      }
      cmds.add(new Command.CancelJob(j.getJobId(), now(), peer.uid()));
      return SlurmError.SUCCESS;
    }
    if (kill) {
      cmds.add(new Command.CancelJob(j.getJobId(), now(), peer.uid()));
    }
    if (kill) {
      effects.addAll(orders.signal(j, 0));
    } else if (scope != SignalScope.SIGNAL_STEPS) { // steps alone: signalled as steps (signalSteps)
      effects.addAll(orders.signal(j, signal, scope));
    }
    return SlurmError.SUCCESS;
  }

  /** The listed jobs (unknown ids reported), or all jobs matching the filters. */
  /**
   * scancel ARRAY_TASK: a pending task leaves the array's pending tasks; a started one is
   * cancelled (or signalled) as the job it became.
   */
  private void arrayTask(Peer peer, int arrayJobId, int taskId, CancelJobsRequest req, ClusterState s,
      List<Command> cmds, List<Runnable> effects, JobResultsReply.Builder reply) {
    JobRecord meta = s.jobs().get(arrayJobId);
    if (meta != null && meta.getInfo().getArrayJobId() == arrayJobId && JobStates.isPending(meta.getInfo())
        && org.corral.common.ArrayTasks.fromString(meta.getInfo().getArrayTasks()).contains(taskId)) {
      if (!auth.mayActOnJob(peer, meta.getInfo())) {
        reply.addResults(result(arrayJobId, SlurmError.ACCESS_DENIED));
      } else if (req.getSignal() != 0 && req.getSignal() != 9) {
        reply.addResults(result(arrayJobId, SlurmError.JOB_PENDING));
      } else {
        cmds.add(new Command.CancelArrayTask(arrayJobId, taskId, now(), peer.uid()));
        reply.addResults(result(arrayJobId, SlurmError.SUCCESS));
      }
      return;
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getArrayJobId() == arrayJobId && j.getArrayTasks().isEmpty() && j.getArrayTaskId() == taskId) {
        SlurmError err = cancelOne(peer, j, req.getSignal(), scope(req), cmds, effects);
        reply.addResults(result(j.getJobId(), err));
        return;
      }
    }
    reply.addResults(result(arrayJobId, SlurmError.INVALID_JOB_ID));
  }

  private static List<JobInfo> targets(CancelJobsRequest req, ClusterState s,
      JobResultsReply.Builder reply) {
    List<JobInfo> out = new ArrayList<>();
    if (!req.getJobIdsList().isEmpty() || !req.getArrayTasksList().isEmpty()) {
      for (int id : req.getJobIdsList()) {
        JobRecord r = s.jobs().get(id);
        if (r == null) {
          reply.addResults(result(id, SlurmError.INVALID_JOB_ID));
        } else if (matches(r.getInfo(), req)) {
          out.add(r.getInfo());
        }
        if (r != null && r.getInfo().getArrayJobId() == id) { // an array's id names all its tasks
          for (JobRecord t : s.jobs().values()) {
            if (t.getInfo().getArrayJobId() == id && t.getInfo().getJobId() != id && matches(t.getInfo(), req)) {
              out.add(t.getInfo());
            }
          }
        }
      }
      return out;
    }
    for (JobRecord r : s.jobs().values()) {
      if (!JobStates.isFinished(r.getInfo()) && matches(r.getInfo(), req)) {
        out.add(r.getInfo());
      }
    }
    return out;
  }

  /** scancel's filters: every one given must match; names and partitions may be lists. */
  private static boolean matches(JobInfo j, CancelJobsRequest req) {
    String user = req.getUserName();
    return (user.isEmpty() || user.equals(j.getUserName())
            || user.equals(Integer.toUnsignedString(j.getUserId())))
        && (req.getStatesList().isEmpty() || req.getStatesList().contains(j.getState()))
        && inList(req.getPartition(), j.getPartition())
        && inList(req.getJobName(), j.getName())
        && inList(req.getAccount(), j.getAccount())
        && inList(req.getQos(), j.getQos())
        && (req.getReservation().isEmpty() || req.getReservation().equals(j.getReservation()))
        && (req.getWckey().isEmpty() || req.getWckey().equals(stripDefaultMark(j.getWckey())))
        && usesAnyOf(req.getNodeList(), j.getNodes());
  }

  /** A wckey given by default is shown as "*name"; --wckey names it without the mark. */
  private static String stripDefaultMark(String wckey) {
    return wckey.startsWith("*") ? wckey.substring(1) : wckey;
  }

  /**
   * -w: jobs using any of the given nodes (a hostlist); pending jobs use none, and a malformed
   * list matches no job (as Slurm's scancel, which does not refuse it).
   */
  private static boolean usesAnyOf(String nodeList, String jobNodes) {
    if (nodeList.isEmpty()) {
      return true;
    }
    if (jobNodes.isEmpty()) {
      return false;
    }
    try {
      List<String> used = org.corral.common.Hostlist.expand(jobNodes);
      return org.corral.common.Hostlist.expand(nodeList).stream().anyMatch(used::contains);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean inList(String list, String value) {
    return list.isEmpty() || List.of(list.split(",")).contains(value);
  }

  Decision<JobResultsReply> hold(Peer peer, HoldJobsRequest req, ClusterState s) {
    List<Command> cmds = new ArrayList<>();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    boolean admin = auth.isAdmin(peer);
    for (int id : req.getJobIdsList()) {
      JobRecord r = s.jobs().get(id);
      SlurmError err;
      if (r == null) {
        err = SlurmError.INVALID_JOB_ID;
      } else if (!auth.mayActOnJob(peer, r.getInfo())) {
        err = SlurmError.ACCESS_DENIED;
      } else if (!JobStates.isHoldable(r.getInfo())) {
        err = SlurmError.JOB_NOT_PENDING;
      } else if (req.getRelease() && !admin && r.getInfo().getPriority() == 0
          && !r.getInfo().getUserHeld()) {
        err = SlurmError.ACCESS_DENIED; // an admin's hold is an admin's to release
      } else {
        err = SlurmError.SUCCESS;
        cmds.add(new Command.HoldJob(id, req.getRelease(), req.getUserHold() || !admin));
      }
      reply.addResults(result(id, err));
    }
    return new Decision<>(cmds, reply.build(), List.of());
  }

  /**
   * {@code scontrol update JobId=}: the owner may lower a pending job's priority only through
   * Nice (a positive one), rename it, change its comment, dependency, start time and a pending
   * job's limit; Priority, a negative Nice and a longer limit for a running job are for
   * administrators. Priority=0 holds the job, as in Slurm.
   */
  Decision<JobResultsReply> update(Peer peer, org.corral.protocol.msg.UpdateJobRequest req, ClusterState s) {
    List<Command> cmds = new ArrayList<>();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    boolean admin = auth.isAdmin(peer);
    Map<String, String> changes = req.getChangesMap();
    for (int id : req.getJobIdsList()) {
      JobRecord r = s.jobs().get(id);
      SlurmError err = r == null ? SlurmError.INVALID_JOB_ID : updateRefusal(peer, admin, r.getInfo(), changes);
      if (err == SlurmError.SUCCESS) {
        String priority = changes.get("priority");
        if ("0".equals(priority)) {
          cmds.add(new Command.HoldJob(id, false, false));
        }
        Map<String, String> rest = new java.util.HashMap<>(changes);
        if ("0".equals(priority)) {
          rest.remove("priority");
        }
        if (!rest.isEmpty()) {
          cmds.add(new Command.UpdateJob(id, now(), Map.copyOf(rest)));
        }
        if (r.getInfo().getArrayJobId() == id) { // an array's id names its started tasks too
          for (JobRecord t : s.jobs().values()) {
            JobInfo task = t.getInfo();
            if (task.getArrayJobId() == id && task.getJobId() != id
                && updateRefusal(peer, admin, task, changes) == SlurmError.SUCCESS) {
              if ("0".equals(priority) && JobStates.isPending(task)) {
                cmds.add(new Command.HoldJob(task.getJobId(), false, false));
              }
              if (!rest.isEmpty()) {
                cmds.add(new Command.UpdateJob(task.getJobId(), now(), Map.copyOf(rest)));
              }
            }
          }
        }
      }
      reply.addResults(result(id, err));
    }
    return new Decision<>(cmds, reply.build(), List.of());
  }

  private SlurmError updateRefusal(Peer peer, boolean admin, JobInfo j, Map<String, String> changes) {
    if (!auth.mayActOnJob(peer, j)) {
      return SlurmError.ACCESS_DENIED;
    }
    if (JobStates.isFinished(j)) {
      return SlurmError.ALREADY_DONE;
    }
    boolean pending = JobStates.isPending(j);
    if (changes.containsKey("priority")) {
      if (j.getPriority() == 0 && !"0".equals(changes.get("priority"))) {
        return SlurmError.JOB_HELD; // Slurm says so first, to its owner too
      }
      if (!admin) {
        return SlurmError.PRIO_RESET_FAIL;
      }
    }
    if (changes.containsKey("nice") && Integer.parseInt(changes.get("nice")) < 0 && !admin) {
      return SlurmError.ACCESS_DENIED;
    }
    if (changes.containsKey("timelimit") && !pending && !admin) {
      long asked = Integer.toUnsignedLong((int) Long.parseLong(changes.get("timelimit")));
      if (asked > Integer.toUnsignedLong(j.getTimeLimitMin())) {
        return SlurmError.ACCESS_DENIED;
      }
    }
    if ((changes.containsKey("starttime") || changes.containsKey("dependency")) && !pending) {
      return SlurmError.JOB_NOT_PENDING;
    }
    return SlurmError.SUCCESS;
  }

  /** What squeue shows for a job that {@code scontrol requeuehold} (or a failed Prolog) held. */
  static final String REQUEUED_HELD = "job requeued in held state";

  /**
   * {@code scontrol requeue[hold]}: batch jobs that allow it go back to the queue; running ones
   * are killed first (they pend once their node reports the end).
   */
  Decision<JobResultsReply> requeue(Peer peer, RequeueJobsRequest req, ClusterState s) {
    List<Command> cmds = new ArrayList<>();
    List<Runnable> effects = new ArrayList<>();
    JobResultsReply.Builder reply = JobResultsReply.newBuilder();
    boolean admin = auth.isAdmin(peer);
    for (int id : req.getJobIdsList()) {
      JobRecord r = s.jobs().get(id);
      SlurmError err = r == null ? SlurmError.INVALID_JOB_ID : requeueRefusal(peer, r.getInfo());
      if (err == SlurmError.SUCCESS) {
        JobInfo j = r.getInfo();
        boolean hold = req.getHold() || req.getSpecialExit();
        cmds.add(new Command.RequeueJob(id, now(), hold, hold && !admin, hold ? REQUEUED_HELD : "",
            req.getSpecialExit()));
        if (JobStates.holdsResources(j) && !j.getCompleting()) {
          effects.addAll(orders.signal(j, 0));
        }
      }
      reply.addResults(result(id, err));
    }
    return new Decision<>(cmds, reply.build(), effects);
  }

  /** Why the caller may not requeue this job, in Slurm's order of checks; SUCCESS when it may. */
  private SlurmError requeueRefusal(Peer peer, JobInfo j) {
    if (!auth.mayActOnJob(peer, j)) {
      return SlurmError.ACCESS_DENIED;
    }
    if (JobStates.isQueued(j)) {
      return SlurmError.JOB_PENDING;
    }
    if (j.getInteractive()) {
      return SlurmError.BATCH_ONLY; // srun/salloc allocations are never requeued
    }
    return j.getRequeue() ? SlurmError.SUCCESS : SlurmError.DISABLED;
  }

  static JobResult result(int id, SlurmError e) {
    return JobResult.newBuilder().setJobId(id).setErrorCode(e.code())
        .setErrorMessage(e == SlurmError.SUCCESS ? "" : e.message()).build();
  }
}
