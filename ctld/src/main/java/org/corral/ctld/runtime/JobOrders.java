package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.List;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeHookRequest;
import org.corral.protocol.msg.SignalJobRequest;
import org.corral.protocol.msg.SignalScope;

/**
 * Effects that carry the controller's decisions to the nodes once they are durable: launching a
 * started job on its batch host, signalling a job's nodes. A launch that cannot reach its node
 * ends the job as a launch failure (through the writer, like every change).
 */
final class JobOrders {
  private final NodeAgent agent;
  private final StateWriter writer;
  private final String clusterName;
  private final int killWait;
  private final java.time.Clock clock;
  private final NodeHookPolicy hooks;
  private final JobData data;

  /**
   * @param hooks whether the job's other nodes run a Prolog at allocation and an Epilog at the end
   * @param data where jobs' scripts and environments are read from at launch
   */
  JobOrders(NodeAgent agent, StateWriter writer, String clusterName, int killWait,
      java.time.Clock clock, NodeHookPolicy hooks, JobData data) {
    this.agent = agent;
    this.writer = writer;
    this.clusterName = clusterName;
    this.killWait = killWait;
    this.clock = clock;
    this.hooks = hooks;
    this.data = data;
  }

  /** The launch of a job that {@code state} shows running. */
  Runnable launch(ClusterState state, int jobId) {
    return () -> {
      JobRecord rec = writer.current().job(jobId).orElse(state.job(jobId).orElse(null));
      if (rec == null || rec.getInfo().getAllocationCount() == 0) {
        return;
      }
      JobInfo j = rec.getInfo();
      if (rec.getSpec().getInteractive()) { // srun/salloc: no batch script, every node is "other"
        if (hooks.prologAtAllocation()) {
          otherNodes(j, false, 0).forEach(Runnable::run);
        }
        return;
      }
      NodeAllocation first = j.getAllocation(0);
      var node = writer.current().node(first.getNode()).orElse(null);
      if (node == null) {
        return;
      }
      JobSpec spec;
      try {
        spec = data.complete(rec.getSpec());
      } catch (java.io.IOException e) {
        writer.submit(s -> Decision.of(null, new Command.LaunchFailed(jobId,
            clock.instant().getEpochSecond(), "cannot read the job's script or environment: " + e.getMessage())));
        return;
      }
      LaunchBatchRequest req = LaunchBatchRequest.newBuilder()
          .setJob(j).setSpec(spec).setClusterName(clusterName)
          .setCpusOnNode(first.getCpus()).setMemOnNodeMb(first.getMemMb()).build();
      if (!agent.launch(node, req)) {
        writer.submit(s -> Decision.of(null, new Command.LaunchFailed(jobId,
            clock.instant().getEpochSecond(), "cannot reach node " + node.getName())));
      }
      if (hooks.prologAtAllocation()) {
        otherNodes(j, false, 0).forEach(Runnable::run);
      }
    };
  }

  /** The job's Epilog on its nodes other than the batch host (which runs its own), if any is set. */
  List<Runnable> epilogs(JobInfo j, int exitStatus) {
    return hooks.epilog() ? otherNodes(j, true, exitStatus) : List.of();
  }

  /** The nodes {@link #epilogs} orders an Epilog on. */
  List<String> epilogNodes(JobInfo j) {
    if (!hooks.epilog()) {
      return List.of();
    }
    return j.getAllocationList().stream().map(NodeAllocation::getNode)
        .filter(n -> !runsBatchScript(j, n)).distinct().toList();
  }

  /** The batch host runs its own Prolog and Epilog around the script; an allocation has none. */
  private static boolean runsBatchScript(JobInfo j, String node) {
    return !j.getInteractive() && node.equals(j.getBatchHost());
  }

  private List<Runnable> otherNodes(JobInfo j, boolean epilog, int exitStatus) {
    List<Runnable> out = new ArrayList<>();
    NodeHookRequest req = NodeHookRequest.newBuilder().setJob(j).setClusterName(clusterName)
        .setEpilog(epilog).setExitStatus(exitStatus).build();
    for (NodeAllocation a : j.getAllocationList()) {
      if (!runsBatchScript(j, a.getNode())) {
        out.add(() -> writer.current().node(a.getNode()).ifPresent(node -> agent.nodeHook(node, req)));
      }
    }
    return out;
  }

  static final int SIGTERM = 15;
  static final int SIGCONT = 18;
  static final int SIGSTOP = 19;

  /**
   * What a suspension or preemption of {@code j} (as it was before {@code c}) does on its nodes:
   * SIGSTOP, SIGCONT; at the start of a GraceTime SIGCONT and SIGTERM to its tasks (steps, not
   * the batch script, as Slurm does); at its end, or without one, the whole job is killed.
   */
  List<Runnable> effects(JobInfo j, Command c) {
    return switch (c) {
      case Command.SuspendJob x -> signal(j, x.resume() ? SIGCONT : SIGSTOP);
      case Command.PreemptJob x when x.graceEnd() > x.time() -> {
        List<Runnable> out = new ArrayList<>(signal(j, SIGCONT, SignalScope.SIGNAL_STEPS));
        out.addAll(signal(j, SIGTERM, SignalScope.SIGNAL_STEPS));
        yield out;
      }
      case Command.PreemptJob x -> signal(j, 0);
      default -> List.of();
    };
  }

  /** Signals (0 = terminate with SIGKILL after KillWait) every node of the job. */
  List<Runnable> signal(JobInfo j, int signal) {
    return signal(j, signal, SignalScope.SIGNAL_ALL);
  }

  /**
   * Signals the job's processes that {@code scope} names: all of them, the batch shell only
   * (on the batch host), or its steps.
   */
  List<Runnable> signal(JobInfo j, int signal, SignalScope scope) {
    List<Runnable> out = new ArrayList<>();
    for (NodeAllocation a : j.getAllocationList()) {
      if (scope == SignalScope.SIGNAL_BATCH_SHELL && !a.getNode().equals(j.getBatchHost())) {
        continue;
      }
      out.add(() -> writer.current().node(a.getNode()).ifPresent(node -> agent.signal(node,
          SignalJobRequest.newBuilder().setJobId(j.getJobId()).setSignal(signal)
              .setKillWaitS(killWait).setScope(scope).build())));
    }
    return out;
  }
}
