package org.corral.cli.submit;

import org.corral.protocol.msg.JobSpec;

/**
 * Names this process as the one holding an allocation, so the controller can revoke it if this
 * process dies without completing it (as Slurm's controller does when srun/salloc stop
 * answering). Not for salloc --no-shell, which leaves its allocation on purpose.
 */
public final class AllocatingProcess {
  private AllocatingProcess() {}

  public static JobSpec.Builder mark(JobSpec.Builder spec, long pid) {
    ProcessHandle.of(pid).flatMap(p -> p.info().startInstant()).ifPresent(start ->
        spec.setAllocPid((int) pid).setAllocPidStartMs(start.toEpochMilli()));
    return spec;
  }
}
