package org.corral.cli.format;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.corral.protocol.JobStateNames;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/** Job state names and codes as Slurm prints and accepts them (squeue %T/%t, -t, scontrol). */
public final class JobStates {
  private JobStates() {}

  /** The full name, e.g. PENDING; a completing job is COMPLETING. */
  public static String name(JobInfo job) {
    return job.getCompleting() ? "COMPLETING" : name(job.getState());
  }

  /** The compact code, e.g. PD; a completing job is CG. */
  public static String code(JobInfo job) {
    return job.getCompleting() ? "CG" : code(job.getState());
  }

  public static String name(JobState s) {
    return JobStateNames.name(s);
  }

  public static String code(JobState s) {
    return JobStateNames.code(s);
  }

  /** Whether the job has not ended: squeue's default selection (pending, running, suspended, completing). */
  public static boolean isActive(JobInfo job) {
    return job.getCompleting() || job.getState() == JobState.PENDING
        || job.getState() == JobState.RUNNING || job.getState() == JobState.SUSPENDED
        || job.getState() == JobState.SPECIAL_EXIT;
  }

  /**
   * What squeue -t accepts: a name or code (any case) of a state, COMPLETING/CG, or ALL.
   * Returns the base states it selects; {@code completing} is signalled through {@link Filter}.
   */
  public record Filter(Set<JobState> states, boolean completing, boolean all) {
    public boolean matches(JobInfo job) {
      return all || states.contains(job.getState()) || (completing && job.getCompleting());
    }
  }

  /** Parses a comma list of states; throws with the offending word for an unknown one. */
  public static Filter parseFilter(String list) {
    Set<JobState> states = EnumSet.noneOf(JobState.class);
    boolean completing = false;
    for (String word : list.split(",")) {
      String w = word.trim().toUpperCase(Locale.ROOT);
      if (w.isEmpty()) {
        continue;
      }
      if (w.equals("ALL")) {
        return new Filter(states, true, true);
      }
      if (w.equals("COMPLETING") || w.equals("CG")) {
        completing = true;
        continue;
      }
      states.add(JobStateNames.parse(w).orElseThrow(() -> new IllegalArgumentException(word)));
    }
    return new Filter(states, completing, false);
  }

  /** Slurm's list of valid state names, printed after an unknown one. */
  public static final String VALID_NAMES = "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,"
      + "TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,"
      + "RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,"
      + "STAGE_OUT,STOPPED";
}
