package org.corral.ctld.runtime;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.Command;
import org.corral.ctld.steps.StepEnvironment;
import org.corral.protocol.StepTaskIds;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.SignalTasksRequest;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;

/**
 * Carries step decisions to the nodes once durable: launch each node's share of a step, signal
 * a step's tasks. A node that cannot be reached ends its share as a launch failure, so srun
 * (which watches the step) is not left waiting for it.
 */
final class StepOrders {
  private final NodeAgent agent;
  private final StateWriter writer;
  private final JobOrders jobs;
  private final String clusterName;
  private final int killWait;
  private final Clock clock;

  StepOrders(NodeAgent agent, StateWriter writer, JobOrders jobs, String clusterName, int killWait,
      Clock clock) {
    this.agent = agent;
    this.writer = writer;
    this.jobs = jobs;
    this.clusterName = clusterName;
    this.killWait = killWait;
    this.clock = clock;
  }

  List<Runnable> launch(JobInfo job, StepRecord record) {
    StepInfo step = record.getInfo();
    var spec = record.getSpec().toBuilder().clearEnvironment()
        .addAllEnvironment(StepEnvironment.withPlacement(record.getSpec().getEnvironmentList(), step)).build();
    List<Runnable> out = new ArrayList<>();
    List<List<Integer>> taskIds = StepTaskIds.byNode(step);
    for (int i = 0; i < step.getNodeNamesCount(); i++) {
      String name = step.getNodeNames(i);
      LaunchTasksRequest launch = LaunchTasksRequest.newBuilder().setJob(job).setStep(step)
          .setSpec(spec).setIoKey(record.getIoKey()).setNodeIndex(i).setClusterName(clusterName)
          .addAllTaskIds(taskIds.get(i)).build();
      out.add(() -> {
        var node = writer.current().node(name).orElse(null);
        if (node == null || !agent.launchTasks(node, launch)) {
          writer.submit(s -> Decision.of(null, new Command.StepNodeDone(step.getJobId(), step.getStepId(),
              name, 1 << 8, clock.instant().getEpochSecond())));
        }
      });
    }
    return out;
  }

  /** Signals the step's tasks on each of its nodes (0 = terminate, SIGKILL after KillWait). */
  List<Runnable> signal(StepInfo step, int signal) {
    List<Runnable> out = new ArrayList<>();
    SignalTasksRequest req = SignalTasksRequest.newBuilder().setJobId(step.getJobId())
        .setStepId(step.getStepId()).setSignal(signal).setKillWaitS(killWait).build();
    for (String name : step.getNodeNamesList()) {
      out.add(() -> writer.current().node(name).ifPresent(node -> agent.signalTasks(node, req)));
    }
    return out;
  }

  /**
   * A signal (not a kill) for each of the job's running steps: what scancel -s and --signal
   * reach unless they name the batch shell alone.
   */
  List<Runnable> signalRunning(JobRecord rec, int signal) {
    List<Runnable> out = new ArrayList<>();
    for (StepRecord st : rec.getStepsList()) {
      if (st.getInfo().getState() == JobState.RUNNING) {
        out.addAll(signal(st.getInfo(), signal));
      }
    }
    return out;
  }

  /** The Epilog on the nodes of an allocation (srun/salloc) that ended, if one is set. */
  List<Runnable> epilogs(JobInfo job, int exitStatus) {
    return jobs.epilogs(job, exitStatus);
  }

  /** Ends whatever the job still runs on its nodes. */
  List<Runnable> terminate(JobInfo job) {
    return jobs.signal(job, 0);
  }
}
