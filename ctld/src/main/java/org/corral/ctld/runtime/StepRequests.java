package org.corral.ctld.runtime;

import com.google.protobuf.ByteString;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.corral.common.Hostlist;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.ctld.steps.MpiPorts;
import org.corral.ctld.steps.StepLayout;
import org.corral.protocol.Peer;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.CompleteAllocationRequest;
import org.corral.protocol.msg.CreateStepReply;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.SignalStepRequest;
import org.corral.protocol.msg.StepFinishedRequest;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepInfoReply;
import org.corral.protocol.msg.StepInfoRequest;
import org.corral.protocol.msg.StepRecord;
import org.corral.protocol.msg.StepSpec;

/**
 * Job steps: srun creates them inside an allocation, nodes report their end, scancel and srun
 * signal them; srun and salloc complete their allocations. Decided on the writer thread.
 */
final class StepRequests {
  private static final int IO_KEY_BYTES = 32;

  private final Authorizer auth;
  private final Clock clock;
  private final StepOrders orders;
  private final SecureRandom random = new SecureRandom();
  /** MpiParams=ports: every step reserves ports of its own. */
  private final Optional<MpiPorts> mpiPorts;

  StepRequests(Authorizer auth, Clock clock, StepOrders orders, Optional<MpiPorts> mpiPorts) {
    this.auth = auth;
    this.clock = clock;
    this.orders = orders;
    this.mpiPorts = mpiPorts;
  }

  Decision<CreateStepReply> create(Peer peer, StepSpec spec, ClusterState s) {
    JobRecord rec = s.job(spec.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    JobInfo job = rec.getInfo();
    if (!auth.mayActOnJob(peer, job)) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    if (job.getState() == JobState.PENDING) {
      throw new SlurmException(SlurmError.JOB_PENDING);
    }
    if (job.getState() != JobState.RUNNING || job.getCompleting()) {
      throw new SlurmException(SlurmError.ALREADY_DONE);
    }
    StepLayout.Placement p = switch (StepLayout.place(job, spec, busyCpus(rec))) {
      case StepLayout.Placed placed -> placed.placement();
      case StepLayout.Busy busy -> throw new SlurmException(SlurmError.NODES_BUSY);
      case StepLayout.Impossible no -> throw new SlurmException(no.error());
    };
    List<org.corral.protocol.msg.NodeAllocation> gres;
    try {
      gres = org.corral.ctld.steps.StepGres.choose(rec, spec, p.nodes(), p.tasks());
    } catch (org.corral.ctld.steps.StepUnavailable e) {
      throw new SlurmException(e.error());
    }
    String ports = "";
    if (mpiPorts.isPresent()) {
      try {
        ports = mpiPorts.get().reserve(p.nodes(), p.tasks(), runningSteps(s));
      } catch (org.corral.ctld.steps.StepUnavailable e) {
        throw new SlurmException(e.error());
      }
    }
    long now = clock.instant().getEpochSecond();
    String name = spec.getName().isEmpty() && spec.getArgvCount() > 0
        ? baseName(spec.getArgv(0)) : spec.getName();
    StepInfo step = StepInfo.newBuilder()
        .setJobId(job.getJobId())
        .setStepId(rec.getNextStepId())
        .setName(name)
        .setState(JobState.RUNNING)
        .setStartTime(now)
        .setTimeLimitMin(spec.hasTimeLimitMin() ? spec.getTimeLimitMin() : (int) SlurmDuration.INFINITE)
        .setNodes(Hostlist.compress(p.nodes()))
        .addAllNodeNames(p.nodes())
        .addAllTasksOnNode(p.tasks())
        .addAllTaskIds(p.taskIds())
        .addAllCpusOnNode(p.cpus())
        .setNumTasks(p.numTasks())
        .setNumCpus(p.numCpus())
        .setCpusPerTask(p.cpusPerTask())
        .setUserId(job.getUserId())
        .setUserName(job.getUserName())
        .setPartition(job.getPartition())
        .setSrunHost(spec.getSrunHost())
        .setSrunPid(spec.getSrunPid())
        .setMemPerNodeMb(memPerNode(job, spec, p))
        .addAllGres(gres)
        .setResvPorts(ports)
        .build();
    byte[] key = new byte[IO_KEY_BYTES];
    random.nextBytes(key);
    StepRecord record = StepRecord.newBuilder().setInfo(step).setSpec(spec.toBuilder().setName(name))
        .setIoKey(ByteString.copyFrom(key)).build();
    CreateStepReply reply = CreateStepReply.newBuilder().setStep(step).setIoKey(record.getIoKey()).build();
    return new Decision<>(List.of(new Command.StepCreated(record, now)), reply,
        orders.launch(job, record));
  }

  Decision<Void> signal(Peer peer, SignalStepRequest req, ClusterState s) {
    JobRecord rec = s.job(req.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    if (!auth.mayActOnJob(peer, rec.getInfo())) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    StepInfo step = running(rec, req.getStepId())
        .orElseThrow(() -> new SlurmException(SlurmError.ALREADY_DONE));
    List<Command> cmds = req.getSignal() == 0
        ? List.of(new Command.StepCancelled(req.getJobId(), req.getStepId(), clock.instant().getEpochSecond()))
        : List.of();
    return new Decision<>(cmds, null, orders.signal(step, req.getSignal()));
  }

  Decision<Void> nodeDone(Peer peer, StepFinishedRequest req, ClusterState s) {
    NodeRequests.checkSender(peer, req.getNodeName());
    int status = req.getLaunchFailed() && req.getExitStatus() == 0 ? 1 << 8 : req.getExitStatus();
    return Decision.of(null, new Command.StepNodeDone(req.getJobId(), req.getStepId(), req.getNodeName(),
        status, req.getEndTime(), req.hasUsage() ? req.getUsage() : null));
  }

  /** srun or salloc is done with its allocation: the job ends with the command's status. */
  Decision<Void> complete(Peer peer, CompleteAllocationRequest req, ClusterState s) {
    JobRecord rec = s.job(req.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    JobInfo job = rec.getInfo();
    if (!auth.mayActOnJob(peer, job)) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    if (!rec.getSpec().getInteractive()) {
      throw new SlurmException(SlurmError.INVALID_JOB_ID, "job " + job.getJobId() + " is a batch job");
    }
    long now = clock.instant().getEpochSecond();
    if (job.getState() == JobState.PENDING) {
      return Decision.of(null, new Command.CancelJob(job.getJobId(), now, peer.uid()));
    }
    if (!JobStates.holdsResources(job)) {
      return Decision.none(null);
    }
    List<Runnable> effects = new ArrayList<>(orders.terminate(job));
    effects.addAll(orders.epilogs(job, req.getExitStatus())); // the Epilog on every node
    return new Decision<>(List.of(new Command.JobEnded(job.getJobId(), now, req.getExitStatus(), "")), null,
        effects);
  }

  /**
   * Running steps (and each running batch job's batch step), as squeue -s and scontrol show them;
   * with_ended: the job's ended steps too, as they ended.
   */
  static StepInfoReply info(StepInfoRequest req, ClusterState s) {
    return info(req, s, j -> true);
  }

  /** The steps of the jobs {@code visible} lets the asker see (PrivateData=jobs): others' show none. */
  static StepInfoReply info(StepInfoRequest req, ClusterState s, java.util.function.Predicate<JobInfo> visible) {
    StepInfoReply.Builder b = StepInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    // Slurm 22.05 answers an unknown job with an error, but an empty list while it knows no job at all.
    if (req.getJobId() != 0 && s.job(req.getJobId()).isEmpty() && !s.jobs().isEmpty()) {
      throw new SlurmException(SlurmError.INVALID_JOB_ID);
    }
    Iterable<JobRecord> jobs = req.getJobId() == 0 ? s.jobs().values()
        : s.job(req.getJobId()).map(List::of).orElse(List.of());
    for (JobRecord rec : jobs) {
      if (!visible.test(rec.getInfo())) {
        continue;
      }
      for (StepInfo step : req.getWithEnded() ? withEnded(rec) : runningSteps(rec)) {
        if (!req.hasStepId() || req.getStepId() == step.getStepId()) {
          b.addSteps(step);
        }
      }
    }
    return b.build();
  }

  /** The job's running steps, then those that have ended. */
  private static List<StepInfo> withEnded(JobRecord rec) {
    List<StepInfo> out = runningSteps(rec);
    boolean jobRunning = rec.getInfo().getState() == JobState.RUNNING;
    for (StepRecord st : rec.getStepsList()) {
      if (!jobRunning || st.getInfo().getState() != JobState.RUNNING) {
        out.add(st.getInfo());
      }
    }
    return out;
  }

  private static List<StepInfo> runningSteps(JobRecord rec) {
    JobInfo job = rec.getInfo();
    List<StepInfo> out = new ArrayList<>();
    if (job.getState() != JobState.RUNNING) {
      return out;
    }
    if (!rec.getSpec().getInteractive() && !job.getBatchHost().isEmpty()) {
      out.add(StepInfo.newBuilder().setJobId(job.getJobId()).setStepId(StepIds.BATCH).setName("batch")
          .setState(JobState.RUNNING).setStartTime(job.getStartTime())
          .setTimeLimitMin((int) SlurmDuration.INFINITE).setNodes(job.getBatchHost())
          .addNodeNames(job.getBatchHost()).addTasksOnNode(1).addCpusOnNode(0).setNumTasks(1)
          .setUserId(job.getUserId()).setUserName(job.getUserName()).setPartition(job.getPartition())
          .build());
    }
    for (StepRecord st : rec.getStepsList()) {
      if (st.getInfo().getState() == JobState.RUNNING) {
        out.add(st.getInfo());
      }
    }
    if (job.getArrayJobId() != 0) { // an array task's steps are listed as the task's (12_3.batch)
      out.replaceAll(st -> st.toBuilder().setArrayJobId(job.getArrayJobId())
          .setArrayTaskId(job.getArrayTaskId()).build());
    }
    return out;
  }

  private static Optional<StepInfo> running(JobRecord rec, int stepId) {
    return rec.getStepsList().stream().map(StepRecord::getInfo)
        .filter(st -> st.getStepId() == stepId && st.getState() == JobState.RUNNING).findFirst();
  }

  /** CPUs held on each node by the job's running steps that do not share (no --overlap). */
  /** The steps of the running jobs (those that may hold reserved ports). */
  private static List<StepInfo> runningSteps(ClusterState s) {
    List<StepInfo> steps = new ArrayList<>();
    for (JobRecord r : s.jobs().values()) {
      if (r.getInfo().getState() == JobState.RUNNING) {
        r.getStepsList().forEach(st -> steps.add(st.getInfo()));
      }
    }
    return steps;
  }

  private static Map<String, Integer> busyCpus(JobRecord rec) {
    Map<String, Integer> busy = new HashMap<>();
    for (StepRecord st : rec.getStepsList()) {
      StepInfo info = st.getInfo();
      if (info.getState() != JobState.RUNNING || st.getSpec().getOverlap()) {
        continue;
      }
      for (int i = 0; i < info.getNodeNamesCount(); i++) {
        busy.merge(info.getNodeNames(i), info.getCpusOnNode(i), Integer::sum);
      }
    }
    return busy;
  }

  /** The step's memory on each node: as asked, else the job's (all of it, as in Slurm). */
  private static long memPerNode(JobInfo job, StepSpec spec, StepLayout.Placement p) {
    if (spec.hasMemPerNodeMb()) {
      return spec.getMemPerNodeMb();
    }
    if (spec.hasMemPerCpuMb()) {
      return spec.getMemPerCpuMb() * p.numCpus() / p.nodes().size();
    }
    return job.getMemPerNodeMb() > 0 ? job.getMemPerNodeMb()
        : job.getMemPerCpuMb() * p.numCpus() / p.nodes().size();
  }

  private static String baseName(String path) {
    int slash = path.lastIndexOf('/');
    return slash >= 0 ? path.substring(slash + 1) : path;
  }
}
