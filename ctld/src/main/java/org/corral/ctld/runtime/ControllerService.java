package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.corral.common.SlurmError;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.Peer;
import org.corral.protocol.RequestHandler;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.audit.AuditLog;
import org.corral.protocol.msg.BatchScriptReply;
import org.corral.protocol.msg.ConfigEntry;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.ConfigReply;
import org.corral.protocol.msg.PriorityWeights;
import org.corral.protocol.msg.CreateStepReply;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.WaitAllocationReply;
import org.corral.protocol.msg.WaitAllocationRequest;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.RegisterNodeReply;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoReply;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoReply;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.ReservationReply;
import org.corral.protocol.msg.SubmitJobReply;

/**
 * The controller's RPC surface. Queries read the writer's latest published state and never
 * wait for it; changes are decided on the writer thread and answered once durable.
 */
public final class ControllerService implements RequestHandler {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final long MAX_WAIT_MS = 60_000;
  private static final long WAIT_POLL_MS = 10;

  private final StateWriter writer;
  private final JobRequests jobs;
  private final SuspendRequests suspensions;
  private final NodeRequests nodes;
  private final NodeAdminRequests nodeAdmin;
  private final StepRequests steps;
  private final AllocationClients clients;
  private final Authorizer auth;
  private final ControllerSeat seat;
  private final Map<String, String> configEntries;
  private final PriorityWeights weights;
  private final ControllerStats stats;
  private final Runnable shutdown;
  private final Confinement confinement;
  private final ShareRequests shares;
  private final LicenseRequests licenses;
  private final RateLimiter rateLimiter;
  private final ReservationRequests reservations;
  private final JobData jobData;
  private volatile ConfigView configView;
  private final PartitionRequests partitions;
  private volatile Reconfiguration reconfiguration;
  private final FileBcastRequests fileBcasts;
  private final TriggerRequests triggers;

  ControllerService(StateWriter writer, JobRequests jobs, SuspendRequests suspensions, NodeRequests nodes, StepRequests steps,
      AllocationClients clients, NodeAdminRequests nodeAdmin, Authorizer auth, ControllerSeat seat, Map<String, String> configEntries,
      PriorityWeights weights, ControllerStats stats, Runnable shutdown, Confinement confinement,
      ShareRequests shares, LicenseRequests licenses, RateLimiter rateLimiter, ReservationRequests reservations,
      JobData jobData, ConfigView configView, FileBcastRequests fileBcasts, TriggerRequests triggers,
      PartitionRequests partitions) {
    this.partitions = partitions;
    this.fileBcasts = fileBcasts;
    this.triggers = triggers;
    this.jobData = jobData;
    this.configView = configView;
    this.rateLimiter = rateLimiter;
    this.reservations = reservations;
    this.shares = shares;
    this.licenses = licenses;
    this.weights = weights;
    this.stats = stats;
    this.confinement = confinement;
    this.writer = writer;
    this.jobs = jobs;
    this.suspensions = suspensions;
    this.nodes = nodes;
    this.steps = steps;
    this.clients = clients;
    this.nodeAdmin = nodeAdmin;
    this.auth = auth;
    this.seat = seat;
    this.configEntries = configEntries;
    this.shutdown = shutdown;
  }

  /** What scontrol show config prints from now on (after a reconfigure). */
  void configView(ConfigView view) {
    this.configView = view;
  }

  /** Serves scontrol reconfigure and the configless daemons' requests for the files. */
  void reconfiguration(Reconfiguration r) {
    this.reconfiguration = r;
  }

  /** Audits state-changing requests from now on (see {@link AuditLog}). */
  void audit(AuditLog log) {
    this.audit = log;
  }

  /** Where submissions are checked for disk room before anything is written (none: not checked). */
  void stateDisk(StateDiskRoom room) {
    this.stateDisk = room;
  }

  private volatile StateDiskRoom stateDisk;

  private volatile AuditLog audit = AuditLog.NONE;

  @Override
  public Response handle(Peer peer, Request req) {
    return handle(peer, req, null);
  }

  @Override
  public Response handle(Peer peer, Request req, String remote) {
    return serve(peer, req, remote, null);
  }

  /**
   * Answers one request, counts it for sdiag (by Slurm's message type and by user) and audits
   * it when it changes state; {@code via} is the daemon that sent it for {@code peer}.
   */
  private Response serve(Peer peer, Request req, String remote, String via) {
    if (rateLimiter != null && !auth.isRootOrSlurmUser(peer)
        && !rateLimiter.allow(peer.uid(), RateLimiter.costOf(req.getSerializedSize()))) {
      LOG.log(Level.INFO, "RPC rate limit exceeded by uid " + peer.uid() + " with "
          + RpcNames.of(req.getBodyCase()).text() + ", telling to back off");
      Response backoff = error(SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF,
          SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.message());
      audit.record(peer, remote, via, req, backoff);
      return backoff;
    }
    long t0 = System.nanoTime();
    stats.serving(+1);
    Response response = null;
    try {
      response = req.getBodyCase() == Request.BodyCase.ON_BEHALF ? onBehalf(peer, req, remote)
          : dispatch(peer, req);
      return response;
    } finally {
      stats.serving(-1);
      RpcNames.Name name = RpcNames.of(req.getBodyCase());
      stats.rpc(name.text(), name.number(), auth.userOf(peer), (System.nanoTime() - t0) / 1000);
      if (response != null && req.getBodyCase() != Request.BodyCase.ON_BEHALF) {
        audit.record(peer, remote, via, req, response);
      }
    }
  }

  /**
   * slurmrestd's request for a REST user, answered and audited as that user's (ADR 0003); one
   * whose wrapping is refused is audited as refused, under the claimed user's name.
   */
  private Response onBehalf(Peer sender, Request req, String remote) {
    Peer user;
    try {
      user = RestIdentity.of(sender, req.getOnBehalf(), UserDirectory.system());
    } catch (SlurmException e) {
      Response refused = error(e.error(), e.getMessage());
      var w = req.getOnBehalf();
      audit.record(new Peer(w.hasUid() ? w.getUid() : Peer.UNKNOWN_ID, Peer.UNKNOWN_ID,
          w.getUserName().isEmpty() ? null : w.getUserName(), sender.daemon()), remote, sender.daemon(),
          w.getRequest(), refused);
      return refused;
    }
    return serve(user, req.getOnBehalf().getRequest(), remote, sender.daemon());
  }

  private Response dispatch(Peer peer, Request req) {
    try {
      return switch (req.getBodyCase()) {
        case SUBMIT_JOB -> {
          // The srun/salloc process an allocation names is checked here, off the writer thread.
          var spec = jobs.filter(peer, clients.verified(req.getSubmitJob().getSpec(), peer), writer.current());
          jobs.prepare(peer, spec);
          if (req.getSubmitJob().getTestOnly()) {
            var run = jobs.testOnly(peer, spec, writer.current()); // planned off the writer thread
            int id = await(writer.submit(jobs::spendJobId));
            yield Response.newBuilder().setSubmitJob(SubmitJobReply.newBuilder()
                .setWillRun(run.toBuilder().setJobId(id))).build();
          }
          int id = submit(peer, spec);
          LOG.log(Level.DEBUG, "_slurm_rpc_submit_batch_job: JobId=" + id + " uid=" + peer.uid());
          yield Response.newBuilder().setSubmitJob(SubmitJobReply.newBuilder().setJobId(id)).build();
        }
        case CANCEL_JOBS -> {
          JobResultsReply r = await(writer.submit(s -> jobs.cancel(peer, req.getCancelJobs(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case UPDATE_JOB -> {
          JobResultsReply r = await(writer.submit(s -> jobs.update(peer, req.getUpdateJob(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case HOLD_JOBS -> {
          JobResultsReply r = await(writer.submit(s -> jobs.hold(peer, req.getHoldJobs(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case UPDATE_NODE -> {
          await(writer.submit(s -> nodeAdmin.update(peer, req.getUpdateNode(), s)));
          yield Response.getDefaultInstance();
        }
        case SUSPEND_JOBS -> {
          JobResultsReply r = await(writer.submit(s -> suspensions.suspend(peer, req.getSuspendJobs(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case TOP_JOBS -> {
          JobResultsReply r = await(writer.submit(s -> suspensions.top(peer, req.getTopJobs(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case REQUEUE_JOBS -> {
          JobResultsReply r = await(writer.submit(s -> jobs.requeue(peer, req.getRequeueJobs(), s)));
          yield Response.newBuilder().setJobResults(r).build();
        }
        case BATCH_SCRIPT -> Response.newBuilder().setBatchScript(batchScript(peer, req.getBatchScript().getJobId()))
            .build();
        case JOB_INFO -> Response.newBuilder()
            .setJobInfo(JobQueries.jobInfo(req.getJobInfo(), writer.current(), auth.jobsVisibleTo(peer))).build();
        case NODE_INFO -> {
          if (!auth.maySeeNodes(peer)) {
            throw new SlurmException(SlurmError.ACCESS_DENIED); // PrivateData=nodes
          }
          yield Response.newBuilder().setNodeInfo(nodeInfo(req, writer.current())).build();
        }
        case RESERVATION -> {
          var r = req.getReservation();
          reservations.checkNames(peer, r);
          String name = await(writer.submit(s -> r.getUpdate() ? reservations.update(peer, r, s)
              : reservations.create(peer, r, s)));
          yield Response.newBuilder().setReservation(ReservationReply.newBuilder().setName(name)).build();
        }
        case DELETE_RESERVATION -> {
          await(writer.submit(s -> reservations.delete(peer, req.getDeleteReservation().getName(), s)));
          yield Response.getDefaultInstance();
        }
        case RESERVATION_INFO -> Response.newBuilder()
            .setReservationInfo(reservations.info(peer, writer.current())).build();
        case PARTITION_INFO -> {
          if (!auth.maySeePartitions(peer)) {
            throw new SlurmException(SlurmError.ACCESS_DENIED); // PrivateData=partitions
          }
          yield Response.newBuilder().setPartitionInfo(partitionInfo(peer, req, writer.current())).build();
        }
        case PING -> Response.newBuilder()
            .setPing(seat.ping(true).toBuilder().setLeaderHost(seat.host())).build();
        case TAKEOVER -> auth.isAdmin(peer) ? Response.getDefaultInstance() // this one leads already
            : error(SlurmError.ACCESS_DENIED, "takeover refused for uid " + peer.uid());
        case CONFIG -> Response.newBuilder().setConfig(config()).build();
        case SHUTDOWN -> {
          if (!auth.isAdmin(peer)) {
            yield error(SlurmError.ACCESS_DENIED, "shutdown refused for uid " + peer.uid());
          }
          Thread.ofVirtual().start(shutdown);
          yield Response.getDefaultInstance();
        }
        case REGISTER_NODE -> {
          RegisterNodeReply r = await(writer.submit(s -> nodes.register(peer, req.getRegisterNode(), s)));
          confinement.nodeUses(req.getRegisterNode().getNodeName(), req.getRegisterNode().getCgroupPlugin());
          yield Response.newBuilder().setRegisterNode(r).build();
        }
        case JOB_ENDING -> {
          await(writer.submit(s -> nodes.ending(peer, req.getJobEnding(), s)));
          yield Response.getDefaultInstance();
        }
        case NODE_HOOK_DONE -> {
          await(writer.submit(s -> nodes.hookDone(peer, req.getNodeHookDone(), s)));
          yield Response.getDefaultInstance();
        }
        case JOB_FINISHED -> {
          await(writer.submit(s -> nodes.finished(peer, req.getJobFinished(), s)));
          yield Response.getDefaultInstance();
        }
        case CREATE_STEP -> {
          jobs.prepare(req.getCreateStep().getSpec());
          CreateStepReply r = await(writer.submit(s -> steps.create(peer, req.getCreateStep().getSpec(), s)));
          yield Response.newBuilder().setCreateStep(r).build();
        }
        case STEP_INFO -> Response.newBuilder()
            .setStepInfo(StepRequests.info(req.getStepInfo(), writer.current(), auth.jobsVisibleTo(peer))).build();
        case SIGNAL_STEP -> {
          await(writer.submit(s -> steps.signal(peer, req.getSignalStep(), s)));
          yield Response.getDefaultInstance();
        }
        case COMPLETE_ALLOCATION -> {
          await(writer.submit(s -> steps.complete(peer, req.getCompleteAllocation(), s)));
          yield Response.getDefaultInstance();
        }
        case WAIT_ALLOCATION -> Response.newBuilder()
            .setWaitAllocation(waitAllocation(peer, req.getWaitAllocation())).build();
        case STEP_FINISHED -> {
          await(writer.submit(s -> steps.nodeDone(peer, req.getStepFinished(), s)));
          yield Response.getDefaultInstance();
        }
        case STEP_STAT -> Response.newBuilder()
            .setStepStat(confinement.stepStats().stat(peer, req.getStepStat(), writer.current())).build();
        case FILE_BCAST -> Response.newBuilder()
            .setFileBcast(fileBcasts.forward(peer, req.getFileBcast(), writer.current())).build();
        case TRIGGER -> Response.newBuilder()
            .setTrigger(triggers.answer(peer, req.getTrigger(), writer.current())).build();
        case STATS -> {
          long now = System.currentTimeMillis() / 1000;
          if (req.getStats().getReset()) {
            if (!auth.isAdmin(peer)) {
              throw new SlurmException(SlurmError.ACCESS_DENIED);
            }
            stats.reset(now);
            yield Response.getDefaultInstance();
          }
          yield Response.newBuilder().setStats(stats.snapshot(writer.current(), now)).build();
        }
        case SHARE_INFO -> Response.newBuilder().setShareInfo(shares.answer(peer, req.getShareInfo())).build();
        case UPDATE_PARTITION -> {
          await(writer.submit(s -> partitions.createOrUpdate(peer, req.getUpdatePartition(), s)));
          yield Response.getDefaultInstance();
        }
        case DELETE_PARTITION -> {
          await(writer.submit(s -> partitions.delete(peer, req.getDeletePartition().getName(), s)));
          yield Response.getDefaultInstance();
        }
        case RECONFIGURE -> {
          Reconfiguration.Prepared next = reconfiguration.prepare(peer);
          await(writer.submit(next::apply));
          next.adopt(writer.current());
          yield Response.getDefaultInstance();
        }
        case CONFIG_FILES -> Response.newBuilder().setConfigFiles(reconfiguration.files(peer)).build();
        case DELETE_NODE -> {
          nodeAdmin.delete(peer, req.getDeleteNode(), writer.current());
          yield Response.getDefaultInstance();
        }
        case LICENSE_INFO -> Response.newBuilder()
            .setLicenseInfo(licenses.answer(req.getLicenseInfo(), writer.current())).build();
        case TOKEN -> Response.newBuilder().setToken(JwtTokens.of(configEntries, java.time.Clock.systemUTC())
            .mint(peer, req.getToken(), auth)).build();
        default -> error(SlurmError.INVALID_MESSAGE, "unexpected request " + req.getBodyCase());
      };
    } catch (SlurmException e) {
      if (e.error() == SlurmError.ACCESS_DENIED) {
        LOG.log(Level.WARNING, "Access/permission denied: " + req.getBodyCase() + " from uid "
            + peer.uid() + (peer.isDaemon() ? " (" + peer.daemon() + ")" : ""));
      }
      return error(e.error(), e.getMessage());
    }
  }

  /**
   * A submission: its script and environment are stored (durably, off the writer thread) before
   * its job is journaled, and the job record names them.
   */
  private int submit(Peer peer, JobSpec spec) {
    if (!spec.getScriptRef().isEmpty() || !spec.getEnvironmentRef().isEmpty()) { // the controller's own to set
      throw new SlurmException(SlurmError.INVALID_MESSAGE, "a submission may not name stored job data");
    }
    StateDiskRoom room = stateDisk;
    if (room != null) {
      room.checkRoomFor(spec.getSerializedSize());
    }
    try (JobData.Stored stored = jobData.store(spec)) {
      return await(writer.submit(s -> jobs.submit(peer, stored.spec(), s)));
    } catch (IOException e) {
      LOG.log(Level.ERROR, "cannot store a job's script or environment: " + e);
      throw new SlurmException(SlurmError.ERROR_ON_DESC_TO_RECORD_COPY, "cannot store the job's script: " + e.getMessage());
    }
  }

  /** scontrol write batch_script: the job's owner, its account's coordinators, operators and administrators. */
  private BatchScriptReply batchScript(Peer peer, int jobId) {
    JobRecord r = writer.current().job(jobId).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    if (!auth.mayActOnJob(peer, r.getInfo())) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    if (r.getSpec().getInteractive()) {
      throw new SlurmException(SlurmError.JOB_SCRIPT_MISSING);
    }
    try {
      return BatchScriptReply.newBuilder().setScript(jobData.script(r.getSpec())).build();
    } catch (IOException e) {
      LOG.log(Level.ERROR, "job " + jobId + ": " + e.getMessage());
      throw new SlurmException(SlurmError.JOB_SCRIPT_MISSING);
    }
  }

  /** Long-polls the published state until the job leaves PENDING or the wait is over. */
  private WaitAllocationReply waitAllocation(Peer peer, WaitAllocationRequest req) {
    long deadline = System.nanoTime() + Math.min(req.getTimeoutMs(), MAX_WAIT_MS) * 1_000_000L;
    while (true) {
      JobInfo job = writer.current().job(req.getJobId()).map(JobRecord::getInfo)
          .filter(j -> auth.maySeeJob(peer, j))
          .orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
      if (job.getState() != org.corral.protocol.msg.JobState.PENDING || System.nanoTime() >= deadline) {
        return WaitAllocationReply.newBuilder().setJob(job).build();
      }
      try {
        Thread.sleep(WAIT_POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return WaitAllocationReply.newBuilder().setJob(job).build();
      }
    }
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SlurmException se) {
        throw se;
      }
      throw new SlurmException(SlurmError.UNEXPECTED, String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SlurmException(SlurmError.UNEXPECTED, "interrupted");
    }
  }

  private static Response error(SlurmError e, String message) {
    return Response.newBuilder().setErrorCode(e.code()).setErrorMessage(message).build();
  }

  private static NodeInfoReply nodeInfo(Request req, ClusterState s) {
    Set<String> names = new HashSet<>(req.getNodeInfo().getNamesList());
    NodeInfoReply.Builder b = NodeInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    var marks = org.corral.ctld.sched.ReservationWindows.NodeMarks.of(s, java.time.Instant.now().getEpochSecond());
    for (NodeInfo n : s.nodesInOrder()) {
      if (names.isEmpty() || names.contains(n.getName())) {
        b.addNodes(marks.mark(n));
      }
    }
    if (!names.isEmpty() && b.getNodesCount() == 0) {
      throw new SlurmException(SlurmError.INVALID_NODE_NAME);
    }
    return b.build();
  }

  private PartitionInfoReply partitionInfo(Peer peer, Request req, ClusterState s) {
    Set<String> names = new HashSet<>(req.getPartitionInfo().getNamesList());
    boolean all = req.getPartitionInfo().getAll() || !names.isEmpty();
    PartitionInfoReply.Builder b = PartitionInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    for (PartitionInfo p : s.partitions()) {
      if ((names.isEmpty() || names.contains(p.getName())) && (all || jobs.partitions().visible(peer, p))) {
        b.addPartitions(p);
      }
    }
    if (!names.isEmpty() && b.getPartitionsCount() == 0) {
      throw new SlurmException(SlurmError.INVALID_PARTITION_NAME);
    }
    return b.build();
  }

  private ConfigReply config() {
    ConfigReply.Builder b = ConfigReply.newBuilder().setPriorityWeights(weights);
    configView.lines(writer.current())
        .forEach(e -> b.addEntries(ConfigEntry.newBuilder().setKey(e.getKey()).setValue(e.getValue())));
    confinement.configEntries().forEach((k, v) -> b.addEntries(ConfigEntry.newBuilder().setKey(k).setValue(v)));
    return b.build();
  }
}
