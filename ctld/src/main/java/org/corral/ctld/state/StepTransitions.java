package org.corral.ctld.state;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepRecord;
import org.corral.protocol.msg.StepUsage;

/**
 * The state machine's part for job steps: created by srun, ended once every node of the step
 * has reported, closed with their job. Pure, like {@link StateMachine}.
 */
final class StepTransitions {
  private StepTransitions() {}

  static ClusterState created(ClusterState s, Command.StepCreated c) {
    StepInfo step = c.step().getInfo();
    JobRecord rec = s.jobs().get(step.getJobId());
    if (rec == null || rec.getInfo().getState() != JobState.RUNNING || rec.getInfo().getCompleting()
        || find(rec, step.getStepId()) >= 0) {
      return s;
    }
    StepRecord started = c.step().toBuilder().setInfo(step.toBuilder()
        .setState(JobState.RUNNING).setStartTime(c.time())).build();
    JobRecord next = rec.toBuilder().addSteps(started)
        .setNextStepId(Math.max(rec.getNextStepId(), step.getStepId() + 1)).build();
    return s.withJobs(s.jobs().plus(step.getJobId(), next), c.time());
  }

  static ClusterState nodeDone(ClusterState s, Command.StepNodeDone c) {
    JobRecord rec = s.jobs().get(c.jobId());
    int i = rec == null ? -1 : find(rec, c.stepId());
    if (i < 0) {
      return s;
    }
    StepInfo step = rec.getSteps(i).getInfo();
    if (step.getState() != JobState.RUNNING || step.getNodesDoneList().contains(c.node())
        || !step.getNodeNamesList().contains(c.node())) {
      return s;
    }
    StepInfo.Builder b = step.toBuilder().addNodesDone(c.node())
        .setExitStatus(Math.max(step.getExitStatus(), c.exitStatus()));
    if (c.usage() != null) {
      StepRecord r = rec.getSteps(i);
      StepUsage usage = r.hasUsage() ? StepUsages.combine(List.of(r.getUsage(), c.usage())) : c.usage();
      rec = rec.toBuilder().setSteps(i, r.toBuilder().setUsage(usage)).build();
    }
    if (b.getNodesDoneCount() == step.getNodeNamesCount()) {
      b.setEndTime(c.time()).setState(step.getCancelled() ? JobState.CANCELLED
          : b.getExitStatus() == 0 ? JobState.COMPLETED : JobState.FAILED);
    }
    return replace(s, rec, i, b.build(), c.time());
  }

  static ClusterState cancelled(ClusterState s, Command.StepCancelled c) {
    JobRecord rec = s.jobs().get(c.jobId());
    int i = rec == null ? -1 : find(rec, c.stepId());
    if (i < 0 || rec.getSteps(i).getInfo().getState() != JobState.RUNNING) {
      return s;
    }
    return replace(s, rec, i, rec.getSteps(i).getInfo().toBuilder().setCancelled(true).build(), c.time());
  }

  /** A job that no longer holds its resources takes its running steps with it. */
  static JobRecord closeWithJob(JobRecord rec, JobInfo info) {
    if (JobStates.holdsResources(info) || rec.getStepsCount() == 0) {
      return rec;
    }
    List<StepRecord> steps = new ArrayList<>(rec.getStepsList());
    boolean changed = false;
    for (int i = 0; i < steps.size(); i++) {
      StepInfo st = steps.get(i).getInfo();
      if (st.getState() == JobState.RUNNING) {
        long end = info.getEndTime() > 0 ? info.getEndTime() : st.getStartTime();
        steps.set(i, steps.get(i).toBuilder().setInfo(st.toBuilder().setState(JobState.CANCELLED)
            .setCancelled(true).setEndTime(end)).build());
        changed = true;
      }
    }
    return changed ? rec.toBuilder().clearSteps().addAllSteps(steps).build() : rec;
  }

  private static ClusterState replace(ClusterState s, JobRecord rec, int i, StepInfo step, long time) {
    JobRecord next = rec.toBuilder().setSteps(i, rec.getSteps(i).toBuilder().setInfo(step)).build();
    return s.withJobs(s.jobs().plus(step.getJobId(), next), time);
  }

  private static int find(JobRecord rec, int stepId) {
    for (int i = 0; i < rec.getStepsCount(); i++) {
      if (rec.getSteps(i).getInfo().getStepId() == stepId) {
        return i;
      }
    }
    return -1;
  }
}
