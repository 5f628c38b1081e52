package org.corral.cli.format;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
   * Slurm's state flags as squeue -t names them (name, code), each selecting the jobs that carry
   * the flag. Of these Corral's jobs carry COMPLETING only; the others are accepted, as Slurm
   * does, and select nothing. SPECIAL_EXIT is a state of its own here.
   */
  private static final Map<String, String> FLAG_STATES = Map.ofEntries(Map.entry("COMPLETING", "CG"),
      Map.entry("CONFIGURING", "CF"), Map.entry("RESIZING", "RS"), Map.entry("REQUEUED", "RQ"),
      Map.entry("REQUEUE_FED", "RF"), Map.entry("REQUEUE_HOLD", "RH"), Map.entry("RESV_DEL_HOLD", "RD"),
      Map.entry("REVOKED", "RV"), Map.entry("SIGNALING", "SI"), Map.entry("STAGE_OUT", "SO"),
      Map.entry("STOPPED", "ST"));

  /**
   * What squeue -t selects: base states and state flags (by name). As in Slurm, a job with a flag
   * (a completing one) is selected by the flag, not by its base state: `-t CA` leaves out a
   * cancelled job still COMPLETING, `-t CG` takes it.
   */
  public record Filter(Set<JobState> states, Set<String> flags, boolean all) {
    public boolean matches(JobInfo job) {
      return all || (job.getCompleting() ? flags.contains("COMPLETING") : states.contains(job.getState()));
    }
  }

  /**
   * Parses a comma list of states as squeue -t does: names or codes in any case, state flags,
   * ALL; empty words are skipped (an empty list selects nothing); a word is taken as typed (" R"
   * is no state). Throws with the offending word for an unknown one.
   */
  public static Filter parseFilter(String list) {
    Set<JobState> states = EnumSet.noneOf(JobState.class);
    Set<String> flags = new HashSet<>();
    for (String word : list.split(",")) {
      String w = word.toUpperCase(Locale.ROOT);
      if (w.isEmpty()) {
        continue;
      }
      if (w.equals("ALL")) {
        return new Filter(states, flags, true);
      }
      Optional<String> flag = FLAG_STATES.entrySet().stream()
          .filter(e -> e.getKey().equals(w) || e.getValue().equals(w)).map(Map.Entry::getKey).findFirst();
      if (flag.isPresent()) {
        flags.add(flag.get());
      } else {
        states.add(JobStateNames.parse(w).orElseThrow(() -> new IllegalArgumentException(word)));
      }
    }
    return new Filter(states, flags, false);
  }

  /** Slurm's list of valid state names, printed after an unknown one. */
  public static final String VALID_NAMES = "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,"
      + "TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,"
      + "RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,"
      + "STAGE_OUT,STOPPED";
}
