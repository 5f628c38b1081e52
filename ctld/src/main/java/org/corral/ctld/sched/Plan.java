package org.corral.ctld.sched;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.Waiting;

/**
 * What the planner decided: jobs to start now, and why each other pending job waits.
 *
 * @param depth how many pending jobs the pass looked at
 * @param backfilled how many of the starts went ahead of a job planned for later
 * @param cancels jobs to cancel: their dependency can never be met (kill_invalid_depend)
 * @param pastDeadline pending jobs that can no longer end before their --deadline
 * @param preemptions running jobs to preempt (PreemptJob, SuspendJob) and suspended ones to resume
 */
public record Plan(List<Command.StartJob> starts, Map<Integer, Waiting> waiting, int depth, int backfilled,
    List<Integer> cancels, List<Integer> pastDeadline, List<Command> preemptions) {
  public Plan(List<Command.StartJob> starts, Map<Integer, Waiting> waiting) {
    this(starts, waiting, 0, 0, List.of(), List.of());
  }

  public Plan(List<Command.StartJob> starts, Map<Integer, Waiting> waiting, int depth, int backfilled,
      List<Integer> cancels, List<Integer> pastDeadline) {
    this(starts, waiting, depth, backfilled, cancels, pastDeadline, List.of());
  }


  /** The reasons alone, by job id. */
  public Map<Integer, String> reasons() {
    Map<Integer, String> out = new LinkedHashMap<>();
    waiting.forEach((id, w) -> out.put(id, w.reason()));
    return out;
  }
}
