package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * Evaluates sbatch --dependency for one scheduling pass: {@code type:id[:id...]} terms joined by
 * ',' (all must hold) or '?' (any may), and {@code singleton}. Types: after (started, or
 * {@code +minutes} after it started), afterany, afterok, afternotok, aftercorr (taken as afterok
 * of the whole array). An id may name a whole array (every task counts) or one task
 * ({@code 12_3}). A job no longer in memory counts as satisfied, as in Slurm once it has been
 * purged (a dependency already found never satisfiable stays so).
 */
public final class DependencyCheck {
  /** Outcome of a check. */
  public enum Result { SATISFIED, WAITING, NEVER }

  private final ClusterState state;
  private final long now;
  private Map<Integer, List<JobInfo>> arrays;      // array job id -> its members
  private Map<String, List<JobInfo>> byUserAndName; // for singleton

  public DependencyCheck(ClusterState state, long now) {
    this.state = state;
    this.now = now;
  }

  /** The dependency of {@code job} as it stands now. */
  public Result check(JobInfo job) {
    String dependency = job.getDependency();
    if (dependency.isBlank()) {
      return Result.SATISFIED;
    }
    boolean any = dependency.contains("?");
    boolean sawWaiting = false;
    boolean sawNever = false;
    for (String term : dependency.split("[,?]")) {
      Result r = term(term.trim(), job);
      if (any && r == Result.SATISFIED) {
        return Result.SATISFIED;
      }
      sawWaiting |= r == Result.WAITING;
      sawNever |= r == Result.NEVER;
    }
    Result result = any ? (sawWaiting ? Result.WAITING : Result.NEVER)
        : sawNever ? Result.NEVER : sawWaiting ? Result.WAITING : Result.SATISFIED;
    // Once never satisfiable, always (Slurm keeps the failed dependency): a target purged since
    // must not make it look satisfied.
    if (result == Result.SATISFIED && "DependencyNeverSatisfied".equals(job.getStateReason())) {
      return Result.NEVER;
    }
    return result;
  }

  private Result term(String term, JobInfo job) {
    if (term.equalsIgnoreCase("singleton")) {
      return singleton(job);
    }
    String[] parts = term.split(":");
    String type = parts[0].toLowerCase(Locale.ROOT);
    Result worst = Result.SATISFIED;
    for (int i = 1; i < parts.length; i++) {
      Result r = target(type, parts[i]);
      if (r == Result.NEVER) {
        return r;
      }
      if (r == Result.WAITING) {
        worst = r;
      }
    }
    return worst;
  }

  /** One id of a term: a job, a whole array (all tasks must allow it), or one task (12_3). */
  private Result target(String type, String idAndDelay) {
    int plus = idAndDelay.indexOf('+');
    String text = plus >= 0 ? idAndDelay.substring(0, plus) : idAndDelay;
    try {
      long delayS = plus >= 0 ? Long.parseLong(idAndDelay.substring(plus + 1)) * 60 : 0;
      int underscore = text.indexOf('_');
      if (underscore > 0) {
        return task(type, Integer.parseInt(text.substring(0, underscore)),
            Integer.parseInt(text.substring(underscore + 1)), delayS);
      }
      int id = Integer.parseInt(text);
      List<JobInfo> members = arrays().get(id);
      if (members == null) {
        return state.job(id).map(r -> one(type, r.getInfo(), delayS)).orElse(Result.SATISFIED);
      }
      Result worst = Result.SATISFIED;
      for (JobInfo m : members) {
        Result r = one(type, m, delayS);
        if (r == Result.NEVER) {
          return r;
        }
        if (r == Result.WAITING) {
          worst = r;
        }
      }
      return worst;
    } catch (NumberFormatException e) {
      return Result.NEVER;
    }
  }

  private Result task(String type, int arrayId, int taskId, long delayS) {
    for (JobInfo m : arrays().getOrDefault(arrayId, List.of())) {
      boolean pendingHere = !m.getArrayTasks().isEmpty()
          && org.corral.common.ArrayTasks.fromString(m.getArrayTasks()).contains(taskId);
      if (pendingHere) {
        return Result.WAITING;
      }
      if (m.getArrayTasks().isEmpty() && m.getArrayTaskId() == taskId) {
        return one(type, m, delayS);
      }
    }
    return Result.SATISFIED;
  }

  private Result one(String type, JobInfo dep, long delayS) {
    boolean finished = JobStates.isFinished(dep) && !dep.getCompleting();
    boolean pending = dep.getState() == JobState.PENDING;
    return switch (type) {
      case "after" -> pending ? Result.WAITING
          : delayS > 0 && dep.getStartTime() + delayS > now ? Result.WAITING : Result.SATISFIED;
      case "afterany" -> finished ? Result.SATISFIED : Result.WAITING;
      case "afterok", "aftercorr" -> !finished ? Result.WAITING
          : dep.getState() == JobState.COMPLETED ? Result.SATISFIED : Result.NEVER;
      case "afternotok" -> !finished ? Result.WAITING
          : dep.getState() == JobState.COMPLETED ? Result.NEVER : Result.SATISFIED;
      default -> Result.NEVER;
    };
  }

  /** singleton: no earlier job of the same user and name may still be queued or running. */
  private Result singleton(JobInfo job) {
    if (byUserAndName == null) {
      byUserAndName = new HashMap<>();
      for (JobRecord r : state.jobs().values()) {
        JobInfo j = r.getInfo();
        if (!JobStates.isFinished(j) || j.getCompleting()) {
          byUserAndName.computeIfAbsent(j.getUserId() + "\0" + j.getName(), k -> new ArrayList<>()).add(j);
        }
      }
    }
    for (JobInfo other : byUserAndName.getOrDefault(job.getUserId() + "\0" + job.getName(), List.of())) {
      if (other.getJobId() != job.getJobId()
          && (other.getState() != JobState.PENDING || Integer.compareUnsigned(other.getJobId(), job.getJobId()) < 0)) {
        return Result.WAITING;
      }
    }
    return Result.SATISFIED;
  }

  private Map<Integer, List<JobInfo>> arrays() {
    if (arrays == null) {
      arrays = new HashMap<>();
      for (JobRecord r : state.jobs().values()) {
        JobInfo j = r.getInfo();
        if (j.getArrayJobId() != 0) {
          arrays.computeIfAbsent(j.getArrayJobId(), k -> new ArrayList<>()).add(j);
        }
      }
    }
    return arrays;
  }
}
