package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.corral.common.Version;
import org.corral.common.config.NodeConfig;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobEndingRequest;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.JobFinishedRequest;
import org.corral.protocol.msg.NodeHookDoneRequest;
import org.corral.protocol.msg.RegisterNodeReply;
import org.corral.protocol.msg.RegisterNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepFinishedRequest;
import org.corral.slurmd.launch.JobListener;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.launch.NodeTrouble;
import org.corral.slurmd.step.StepListener;
import org.corral.slurmd.step.StepManager;

/**
 * The node daemon's side of the conversation with the controller: registration at start,
 * heartbeats, and reports of ended jobs and of steps ended here, each retried until the
 * controller acknowledges it (only then is a job's spool forgotten), so a controller restart
 * loses nothing.
 */
final class ControllerLink implements JobListener, StepListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private final RpcChannel controller;
  private final NodeConfig node;
  private final Clock clock;
  private final long startTime;
  private final int killWait;
  private final Duration heartbeat;
  private final Map<Integer, JobFinishedRequest> unacknowledged = new ConcurrentHashMap<>();
  private final Map<String, StepFinishedRequest> unacknowledgedSteps = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
      r -> Thread.ofPlatform().name("heartbeat").daemon().unstarted(r));
  private volatile JobSupervisor supervisor;
  private volatile StepManager steps;
  private volatile String cgroupPlugin = "";
  private volatile java.util.List<org.corral.protocol.msg.GresSlot> gres = null;
  private volatile boolean closed;

  ControllerLink(RpcChannel controller, NodeConfig node, Clock clock, int killWait, Duration heartbeat) {
    this.controller = controller;
    this.node = node;
    this.clock = clock;
    this.startTime = clock.instant().getEpochSecond();
    this.killWait = killWait;
    this.heartbeat = heartbeat;
  }

  /** The confinement backend in use, reported at registration (scontrol show config shows it). */
  /** The generic resources to report at each registration. */
  void gres(java.util.List<org.corral.protocol.msg.GresSlot> slots) {
    this.gres = java.util.List.copyOf(slots);
  }

  void cgroupPlugin(String name) {
    this.cgroupPlugin = name;
  }

  /** The jobs this link reports for; before {@link JobSupervisor#recover} may report any. */
  void attach(JobSupervisor jobs, StepManager stepManager) {
    this.supervisor = jobs;
    this.steps = stepManager;
  }

  /**
   * Registers now and heartbeats from then on. Called after the supervisor re-adopted the jobs
   * left from an earlier life, so that the first registration already lists them and the
   * controller can say at once which of them it no longer runs here.
   */
  void start() {
    timer.scheduleWithFixedDelay(this::register, 0, heartbeat.toMillis(), TimeUnit.MILLISECONDS);
  }

  private boolean registered;

  private void register() {
    JobSupervisor jobs = supervisor;
    Set<Integer> known = new HashSet<>(jobs.runningJobs());
    known.addAll(unacknowledged.keySet());
    StepManager stepManager = steps;
    if (stepManager != null) {
      known.addAll(stepManager.runningJobs());
    }
    RegisterNodeRequest req = RegisterNodeRequest.newBuilder()
        .setNodeName(node.name()).setCpus(node.cpus()).setRealMemoryMb(node.realMemoryMb())
        .setBootTime(HostFacts.bootTime()).setSlurmdStartTime(startTime)
        .addAllRunningJobIds(known).setVersion(Version.NUMBER).setOs(HostFacts.os()).setArch(HostFacts.arch())
        .setCpuLoad(HostFacts.cpuLoad()).setFreeMemMb(HostFacts.freeMemMb())
        .setHeartbeat(registered).setCgroupPlugin(cgroupPlugin)
        .addAllGres(gres == null ? java.util.List.of() : gres).setGresReported(gres != null).build();
    try {
      Response r = controller.call(Request.newBuilder().setRegisterNode(req).build());
      if (r.getErrorCode() != 0) {
        LOG.log(Level.ERROR, "registration refused: " + r.getErrorMessage());
        return;
      }
      if (!registered) {
        LOG.log(Level.INFO, "registered with slurmctld as " + node.name());
      }
      registered = true;
      RegisterNodeReply reply = r.getRegisterNode();
      for (int id : reply.getCancelJobIdsList()) {
        if (!unacknowledged.containsKey(id)) {
          LOG.log(Level.INFO, "killing job " + id + ": the controller no longer runs it here");
          jobs.signal(id, 0, killWait);
          if (stepManager != null) {
            stepManager.signalJob(id, 0, killWait, false);
          }
        }
      }
    } catch (IOException e) {
      LOG.log(registered ? Level.WARNING : Level.DEBUG, "cannot reach slurmctld: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "registration failed: " + e, e);
    }
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message) {
    finished(jobId, exitStatus, endTime, launchFailed, message, false, NodeTrouble.NONE);
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message,
      boolean outOfMemory) {
    finished(jobId, exitStatus, endTime, launchFailed, message, outOfMemory, NodeTrouble.NONE);
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message,
      boolean outOfMemory, NodeTrouble trouble) {
    finished(jobId, exitStatus, endTime, launchFailed, message, outOfMemory, trouble, null);
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTime, boolean launchFailed, String message,
      boolean outOfMemory, NodeTrouble trouble, org.corral.protocol.msg.StepUsage usage) {
    JobFinishedRequest.Builder b = JobFinishedRequest.newBuilder().setJobId(jobId)
        .setNodeName(node.name()).setExitStatus(exitStatus).setEndTime(endTime)
        .setLaunchFailed(launchFailed && trouble != NodeTrouble.PROLOG_FAILED)
        .setMessage(message == null ? "" : message).setOutOfMemory(outOfMemory)
        .setPrologFailed(trouble == NodeTrouble.PROLOG_FAILED)
        .setEpilogFailed(trouble == NodeTrouble.EPILOG_FAILED)
        .setKillFailed(trouble == NodeTrouble.KILL_FAILED);
    if (usage != null) {
      b.setUsage(usage);
    }
    JobFinishedRequest req = b.build();
    if (unacknowledged.putIfAbsent(jobId, req) == null) {
      Thread.ofVirtual().name("report-" + jobId).start(() ->
          report("job " + jobId, Request.newBuilder().setJobFinished(req).build(), () -> {
            unacknowledged.remove(jobId);
            supervisor.forget(jobId);
          }));
    }
  }

  @Override
  public void finished(StepFinishedRequest req) {
    String step = Integer.toUnsignedString(req.getJobId()) + "." + StepIds.name(req.getStepId());
    if (unacknowledgedSteps.putIfAbsent(step, req) == null) {
      Thread.ofVirtual().name("report-" + step).start(() ->
          report("step " + step, Request.newBuilder().setStepFinished(req).build(),
              () -> unacknowledgedSteps.remove(step)));
    }
  }

  /** The job's script ended and its Epilog runs: one try to say so; the final report decides anyway. */
  @Override
  public void ending(int jobId, int exitStatus, long endTime) {
    JobEndingRequest req = JobEndingRequest.newBuilder().setJobId(jobId).setNodeName(node.name())
        .setExitStatus(exitStatus).setEndTime(endTime).build();
    try {
      controller.call(Request.newBuilder().setJobEnding(req).build());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, "job " + jobId + ": end not shown before its epilog: " + e.getMessage());
    }
  }

  /**
   * A job's Prolog failed or its Epilog ended here (not its batch host): tells the controller,
   * until it hears.
   */
  void hookDone(int jobId, boolean epilog, boolean failed) {
    NodeHookDoneRequest req = NodeHookDoneRequest.newBuilder().setNodeName(node.name())
        .setJobId(jobId).setEpilog(epilog).setFailed(failed)
        .setTime(clock.instant().getEpochSecond()).build();
    Thread.ofVirtual().name("hook-report-" + jobId).start(() ->
        report("job " + jobId + (epilog ? " epilog" : " prolog"),
            Request.newBuilder().setNodeHookDone(req).build(), () -> { }));
  }

  /** Sends an end report until acknowledged, backing off up to 10 s between tries. */
  private void report(String what, Request req, Runnable acknowledged) {
    long delay = 100;
    while (!closed) {
      try {
        Response r = controller.call(req);
        if (r.getErrorCode() == 0) {
          acknowledged.run();
          return;
        }
        LOG.log(Level.WARNING, what + " end report refused: " + r.getErrorMessage());
      } catch (IOException e) {
        LOG.log(Level.DEBUG, what + " end report not delivered yet: " + e.getMessage());
      }
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        return;
      }
      delay = Math.min(10_000, delay * 2);
    }
  }

  @Override
  public void close() {
    closed = true;
    timer.shutdownNow();
  }
}
