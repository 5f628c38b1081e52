package org.corral.ctld.sched;

import java.util.List;
import java.util.Map;
import org.corral.ctld.state.Command;

/** What the planner decided: jobs to start now, and why each other pending job waits. */
public record Plan(List<Command.StartJob> starts, Map<Integer, String> reasons) {}
