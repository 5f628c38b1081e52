package org.corral.ctld.runtime;

import java.util.Optional;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobSpec;

/**
 * The srun and salloc processes that hold allocations. Commands run on the controller's host, so
 * the controller can see whether the process that asked for an allocation still exists; when it
 * is gone without completing the allocation (killed, its terminal closed), the allocation is
 * revoked, as Slurm does when srun/salloc stop answering its pings. A process the controller
 * cannot see at submission (another PID namespace) is not watched.
 */
final class AllocationClients {
  /** What the controller can see of a process. */
  record ProcessView(long startMillis, String user) {}

  interface Processes {
    Optional<ProcessView> find(long pid);
  }

  private final Processes processes;

  AllocationClients(Processes processes) {
    this.processes = processes;
  }

  static AllocationClients system() {
    return new AllocationClients(pid -> ProcessHandle.of(pid).flatMap(h -> {
      ProcessHandle.Info info = h.info();
      return info.startInstant().map(start -> new ProcessView(start.toEpochMilli(), info.user().orElse("")));
    }));
  }

  /** The spec as it will be watched: the claimed process must exist, with that start, as the caller's user. */
  JobSpec verified(JobSpec spec, Peer peer) {
    if (!spec.getInteractive() || spec.getAllocPid() == 0) {
      return spec;
    }
    Optional<ProcessView> seen = processes.find(Integer.toUnsignedLong(spec.getAllocPid()));
    boolean ok = seen.isPresent() && seen.get().startMillis() == spec.getAllocPidStartMs()
        && (peer.uid() == 0 || seen.get().user().equals(peer.userName())
            || seen.get().user().equals(String.valueOf(peer.uid())));
    return ok ? spec : spec.toBuilder().clearAllocPid().clearAllocPidStartMs().build();
  }

  /** Whether a watched allocation's process has gone. */
  boolean gone(JobSpec spec) {
    if (spec.getAllocPid() == 0) {
      return false;
    }
    Optional<ProcessView> seen = processes.find(Integer.toUnsignedLong(spec.getAllocPid()));
    return seen.isEmpty() || seen.get().startMillis() != spec.getAllocPidStartMs();
  }
}
