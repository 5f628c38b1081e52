package org.corral.ctld.sched;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.Waiting;

/** What the planner decided: jobs to start now, and why each other pending job waits. */
public record Plan(List<Command.StartJob> starts, Map<Integer, Waiting> waiting) {

  /** The reasons alone, by job id. */
  public Map<Integer, String> reasons() {
    Map<Integer, String> out = new LinkedHashMap<>();
    waiting.forEach((id, w) -> out.put(id, w.reason()));
    return out;
  }
}
