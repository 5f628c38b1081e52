package org.corral.cli.squeue;

import java.util.Comparator;
import java.util.function.ToLongFunction;
import java.util.Map;
import java.util.function.Function;
import org.corral.cli.format.JobStates;
import org.corral.protocol.msg.JobInfo;

/**
 * squeue's -S: comma-separated field letters, each optionally preceded by + (ascending) or -
 * (descending); the first is the primary key. Jobs equal on every key keep Slurm's order for
 * them, newest (highest id) first.
 */
final class JobOrder {
  private JobOrder() {}

  /** Slurm's default for jobs: partition, state, then decreasing priority. */
  static final String DEFAULT = "P,t,-p";

  // Comparators are built here rather than with Comparator.comparing/thenComparing: the JDK's
  // lambdas behind those are made at run time, not kept in the command's class cache (some ms
  // of every squeue's start).
  private static Comparator<JobRow> byLong(ToLongFunction<JobRow> f) {
    return (a, b) -> Long.compare(f.applyAsLong(a), f.applyAsLong(b));
  }

  private static Comparator<JobRow> then(Comparator<JobRow> first, Comparator<JobRow> next) {
    return (a, b) -> {
      int c = first.compare(a, b);
      return c != 0 ? c : next.compare(a, b);
    };
  }

  private static final Comparator<JobRow> BY_ID = byLong(r -> Integer.toUnsignedLong(r.job().getJobId()));

  /**
   * squeue -S i: by job id, an array's tasks under the array's id in task order, its record of
   * pending tasks after them (Slurm's _sort_job_by_id).
   */
  private static final Comparator<JobRow> BY_ARRAY_ID = then(
      byLong(r -> Integer.toUnsignedLong(
          r.job().getArrayJobId() != 0 ? r.job().getArrayJobId() : r.job().getJobId())),
      byLong(r -> r.job().getArrayJobId() == 0 ? 0
          : !r.job().getArrayTasks().isEmpty() ? Long.MAX_VALUE
          : Integer.toUnsignedLong(r.job().getArrayTaskId())));

  private static Comparator<JobRow> num(Function<JobInfo, Integer> f) {
    return byLong(r -> Integer.toUnsignedLong(f.apply(r.job())));
  }

  private static Comparator<JobRow> str(Function<JobInfo, String> f) {
    return (a, b) -> f.apply(a.job()).compareTo(f.apply(b.job()));
  }

  // A start time of 0 (not known) sorts last; equal starts go by increasing id, as Slurm does.
  private static final Comparator<JobRow> BY_START = then(
      byLong(r -> r.job().getStartTime() <= 0 ? Long.MAX_VALUE : r.job().getStartTime()), BY_ID);

  /**
   * What Slurm 22.05 does with jobs equal on every sort key, as observed: jobs that started come
   * first, the latest start first and then oldest first; pending jobs after them, newest first.
   */
  private static final Comparator<JobRow> TIES = (a, b) -> {
    boolean pa = a.job().getState() == org.corral.protocol.msg.JobState.PENDING;
    boolean pb = b.job().getState() == org.corral.protocol.msg.JobState.PENDING;
    if (pa != pb) {
      return pa ? 1 : -1;
    }
    if (pa) {
      return BY_ID.compare(b, a);
    }
    int byStart = Long.compare(b.job().getStartTime(), a.job().getStartTime());
    return byStart != 0 ? byStart : BY_ID.compare(a, b);
  };

  /**
   * Ties when squeue asked for one job (-j ID: Slurm loads that job alone, an array's records
   * newest first): by decreasing id.
   */
  private static final Comparator<JobRow> ONE_JOB_TIES = (a, b) -> BY_ID.compare(b, a);

  private static final Map<Character, Comparator<JobRow>> KEYS = Map.ofEntries(
      Map.entry('i', BY_ARRAY_ID), Map.entry('A', BY_ID), Map.entry('F', BY_ARRAY_ID),
      Map.entry('j', str(JobInfo::getName)),
      Map.entry('u', str(JobInfo::getUserName)),
      Map.entry('U', num(JobInfo::getUserId)),
      Map.entry('g', str(JobInfo::getGroupName)),
      Map.entry('G', num(JobInfo::getGroupId)),
      Map.entry('a', str(JobInfo::getAccount)),
      Map.entry('P', str(JobInfo::getPartition)),
      Map.entry('t', str(JobStates::name)), Map.entry('T', str(JobStates::name)),
      Map.entry('p', num(JobInfo::getPriority)), Map.entry('Q', num(JobInfo::getPriority)),
      Map.entry('D', num(JobInfo::getNumNodes)),
      Map.entry('C', num(JobInfo::getNumCpus)),
      Map.entry('M', byLong(JobRow::elapsed)),
      Map.entry('l', num(JobInfo::getTimeLimitMin)),
      Map.entry('N', str(JobInfo::getNodes)),
      Map.entry('R', str(JobColumns::reasonList)),
      Map.entry('r', str(JobInfo::getStateReason)),
      Map.entry('S', BY_START),
      Map.entry('V', byLong(r -> r.job().getSubmitTime())),
      Map.entry('e', byLong(r -> r.job().getEndTime())),
      Map.entry('Z', str(JobInfo::getWorkDir)),
      Map.entry('B', str(JobInfo::getBatchHost)));

  /**
   * The comparator for a sort list.
   *
   * @throws IllegalArgumentException naming the first letter that cannot be sorted on
   */
  static Comparator<JobRow> parse(String spec) {
    return parse(spec, false);
  }

  /** The comparator for a sort list; {@code oneJob}: squeue -j named a single job. */
  static Comparator<JobRow> parse(String spec, boolean oneJob) {
    Comparator<JobRow> ties = oneJob ? ONE_JOB_TIES : TIES;
    Comparator<JobRow> result = null;
    for (String key : spec.split(",")) {
      String k = key.trim();
      boolean descending = false;
      if (k.startsWith("-") || k.startsWith("+")) {
        descending = k.charAt(0) == '-';
        k = k.substring(1);
      }
      if (k.isEmpty()) {
        continue;
      }
      Comparator<JobRow> c = KEYS.get(k.charAt(0));
      if (c == null) {
        throw new IllegalArgumentException(k);
      }
      if (descending) {
        Comparator<JobRow> ascending = c;
        c = (a, b) -> ascending.compare(b, a);
      }
      result = result == null ? c : then(result, c);
    }
    return result == null ? ties : then(result, ties);
  }
}
