package org.corral.slurmd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.RequestHandler;
import org.corral.protocol.msg.FileBcastReply;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SignalScope;
import org.corral.slurmd.bcast.FileBroadcast;
import org.corral.slurmd.hooks.AllocationHooks;
import org.corral.slurmd.launch.JobSupervisor;
import org.corral.slurmd.step.StepManager;

/**
 * What the node daemon serves: the controller's launch and signal orders (and sbcast's file
 * blocks, which the controller forwards), nobody else's.
 */
final class NodeService implements RequestHandler {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private final JobSupervisor jobs;
  private final StepManager steps;
  private final String confPath;
  private final AllocationHooks hooks;
  private final NodeReconfigure reconfigure;

  /** @param confPath this node's slurm.conf, which batch jobs see as SLURM_CONF (as in Slurm) */
  NodeService(JobSupervisor jobs, StepManager steps, String confPath) {
    this(jobs, steps, confPath, null, null);
  }

  /**
   * @param hooks runs the Prolog/Epilog ordered for jobs whose batch host is another node
   * @param reconfigure reads the configuration again when the controller says so (null: refused)
   */
  NodeService(JobSupervisor jobs, StepManager steps, String confPath, AllocationHooks hooks,
      NodeReconfigure reconfigure) {
    this.reconfigure = reconfigure;
    this.jobs = jobs;
    this.steps = steps;
    this.confPath = confPath;
    this.hooks = hooks;
  }

  @Override
  public Response handle(Peer peer, Request req) {
    if (!peer.isDaemon() || !"slurmctld".equals(peer.daemon())) {
      LOG.log(Level.WARNING, "Access/permission denied: " + req.getBodyCase() + " from uid "
          + peer.uid() + (peer.isDaemon() ? " (" + peer.daemon() + ")" : ""));
      return error(SlurmError.ACCESS_DENIED, SlurmError.ACCESS_DENIED.message());
    }
    try {
      switch (req.getBodyCase()) {
        case LAUNCH_BATCH -> {
          LaunchBatchRequest launch = req.getLaunchBatch();
          jobs.launch(launch.toBuilder().setSpec(launch.getSpec().toBuilder()
              .addEnvironment("SLURM_CONF=" + confPath)).build());
        }
        case SIGNAL_JOB -> {
          // The batch step's processes as the scope says; the steps unless only the batch
          // shell is meant (a steps-only signal comes as SIGNAL_TASKS per step).
          var signal = req.getSignalJob();
          jobs.signal(signal.getJobId(), signal.getSignal(), signal.getKillWaitS(), signal.getScope());
          if (signal.getSignal() == 0 || signal.getScope() != SignalScope.SIGNAL_BATCH_SHELL) {
            steps.signalJob(signal.getJobId(), signal.getSignal(), signal.getKillWaitS(),
                jobs.runningJobs().contains(signal.getJobId()));
          }
        }
        case LAUNCH_TASKS -> steps.launch(req.getLaunchTasks());
        case SIGNAL_TASKS -> steps.signal(req.getSignalTasks());
        case NODE_STEP_STAT -> {
          return Response.newBuilder().setStepStat(StepStats.of(jobs, steps, req.getNodeStepStat())).build();
        }
        case NODE_FILE_BCAST -> {
          FileBcastReply.Builder reply = FileBcastReply.newBuilder();
          FileBroadcast.write(req.getNodeFileBcast()).ifPresent(reply::addErrors);
          return Response.newBuilder().setFileBcast(reply).build();
        }
        case PING -> { // the controller checks a node it has not heard from before declaring it dead
          return Response.newBuilder().setPing(org.corral.protocol.msg.PingReply.getDefaultInstance()).build();
        }
        case NODE_HOOK -> {
          if (hooks != null) {
            hooks.submit(req.getNodeHook());
          }
        }
        case NODE_RECONFIGURE -> {
          if (reconfigure == null) {
            return error(SlurmError.NOT_SUPPORTED, SlurmError.NOT_SUPPORTED.message());
          }
          try {
            reconfigure.apply(req.getNodeReconfigure());
          } catch (org.corral.common.config.ConfigException e) {
            LOG.log(Level.ERROR, "reconfigure refused, the running configuration is kept: " + e.getMessage());
            return error(SlurmError.UNEXPECTED, e.getMessage());
          }
        }
        default -> {
          return error(SlurmError.INVALID_MESSAGE, "unexpected request " + req.getBodyCase());
        }
      }
      return Response.getDefaultInstance();
    } catch (IllegalArgumentException e) {
      return error(SlurmError.INVALID_MESSAGE, e.getMessage());
    } catch (IOException e) {
      LOG.log(Level.ERROR, req.getBodyCase() + " failed: " + e.getMessage());
      return error(SlurmError.UNEXPECTED, e.getMessage());
    }
  }

  private static Response error(SlurmError e, String message) {
    return Response.newBuilder().setErrorCode(e.code()).setErrorMessage(message).build();
  }
}
