package org.corral.cli.sbatch;

import java.nio.file.Path;
import java.util.Map;

/** What sbatch learns about the process submitting a job, injectable for tests. */
public interface SubmitterFacts {

  /** This host's name, as gethostname(2) gives it (SLURM_SUBMIT_HOST, JobSpec.submit_host). */
  String hostname();

  /** The directory the command was run in, the job's default working directory. */
  Path currentDirectory(Map<String, String> env);

  /**
   * The variables describing the submitting process that Slurm hands to the job: SLURM_UMASK,
   * SLURM_PRIO_PROCESS and the SLURM_RLIMIT_* soft limits (PropagateResourceLimits).
   */
  Map<String, String> processVariables();

  /** The submitting process's session id (scontrol's AllocNode:Sid); 0 when unknown. */
  default int sessionId() {
    return 0;
  }

  /** The submitting process's id (srun's and salloc's, which the controller watches). */
  default long pid() {
    return ProcessHandle.current().pid();
  }
}
