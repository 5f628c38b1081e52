package org.corral.ctld.sched;

import java.util.Optional;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * Evaluates sbatch --dependency: {@code type:id[:id...]} terms joined by ',' (all must hold) or
 * '?' (any may). Types: after, afterany, afterok, afternotok. A job no longer in memory counts
 * as satisfied, as in Slurm once it has been purged.
 */
public final class DependencyCheck {
  /** Outcome of a check. */
  public enum Result { SATISFIED, WAITING, NEVER }

  private DependencyCheck() {}

  public static Result check(String dependency, ClusterState state) {
    if (dependency.isBlank()) {
      return Result.SATISFIED;
    }
    boolean any = dependency.contains("?");
    boolean sawWaiting = false;
    boolean sawNever = false;
    for (String term : dependency.split("[,?]")) {
      Result r = checkTerm(term.trim(), state);
      if (any && r == Result.SATISFIED) {
        return Result.SATISFIED;
      }
      sawWaiting |= r == Result.WAITING;
      sawNever |= r == Result.NEVER;
    }
    if (any) {
      return sawWaiting ? Result.WAITING : Result.NEVER;
    }
    return sawNever ? Result.NEVER : sawWaiting ? Result.WAITING : Result.SATISFIED;
  }

  private static Result checkTerm(String term, ClusterState state) {
    String[] parts = term.split(":");
    String type = parts[0].toLowerCase(java.util.Locale.ROOT);
    Result worst = Result.SATISFIED;
    for (int i = 1; i < parts.length; i++) {
      String idText = parts[i].contains("+") ? parts[i].substring(0, parts[i].indexOf('+')) : parts[i];
      Optional<JobRecord> dep;
      try {
        dep = state.job(Integer.parseInt(idText));
      } catch (NumberFormatException e) {
        return Result.NEVER;
      }
      if (dep.isEmpty()) {
        continue;
      }
      Result r = one(type, dep.get().getInfo());
      if (r == Result.NEVER) {
        return r;
      }
      if (r == Result.WAITING) {
        worst = r;
      }
    }
    return worst;
  }

  private static Result one(String type, JobInfo dep) {
    boolean finished = JobStates.isFinished(dep) && !dep.getCompleting();
    return switch (type) {
      case "after" -> dep.getState() == JobState.PENDING ? Result.WAITING : Result.SATISFIED;
      case "afterany" -> finished ? Result.SATISFIED : Result.WAITING;
      case "afterok" -> !finished ? Result.WAITING
          : dep.getState() == JobState.COMPLETED ? Result.SATISFIED : Result.NEVER;
      case "afternotok" -> !finished ? Result.WAITING
          : dep.getState() == JobState.COMPLETED ? Result.NEVER : Result.SATISFIED;
      default -> Result.NEVER;
    };
  }
}
