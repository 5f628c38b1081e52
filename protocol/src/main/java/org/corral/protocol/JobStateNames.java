package org.corral.protocol;

import java.util.Locale;
import java.util.Optional;
import org.corral.protocol.msg.JobState;

/**
 * A job state's name (PENDING) and code (PD) as Slurm prints and accepts them: one table for
 * squeue and scontrol, sacct -s and slurmrestd's state filters.
 */
public final class JobStateNames {
  private JobStateNames() {}

  public static String name(JobState s) {
    return s == JobState.UNRECOGNIZED ? "UNKNOWN" : s.name();
  }

  public static String code(JobState s) {
    return switch (s) {
      case PENDING -> "PD";
      case RUNNING -> "R";
      case SUSPENDED -> "S";
      case COMPLETED -> "CD";
      case CANCELLED -> "CA";
      case FAILED -> "F";
      case TIMEOUT -> "TO";
      case NODE_FAIL -> "NF";
      case PREEMPTED -> "PR";
      case BOOT_FAIL -> "BF";
      case DEADLINE -> "DL";
      case OUT_OF_MEMORY -> "OOM";
      case SPECIAL_EXIT -> "SE";
      case REQUEUED -> "RQ";
      case UNRECOGNIZED -> "??";
    };
  }

  /** The state a name or code (any case) stands for; the word as typed (" R" is none, as in Slurm). */
  public static Optional<JobState> parse(String word) {
    String w = word.toUpperCase(Locale.ROOT);
    for (JobState s : JobState.values()) {
      if (s != JobState.UNRECOGNIZED && (s.name().equals(w) || code(s).equals(w))) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
