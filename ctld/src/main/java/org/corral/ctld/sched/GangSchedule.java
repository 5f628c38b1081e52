package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.NodeInfo;

/**
 * Gang scheduling (PreemptMode=GANG): the jobs of a partition that share CPUs (OverSubscribe)
 * take turns, so that no CPU runs two of them at once. Each partition is on its own, as in
 * Slurm (jobs of different partitions are never time-sliced against each other).
 *
 * <p>Which jobs run is decided afresh each time from the state alone: first the jobs running
 * for less than a time slice and the waiting ones, by when they began to run or to wait (a
 * running one first where it began when the other began to wait), then those whose slice is
 * over; each runs if its CPUs fit beside those before it. So a new job that finds its CPUs busy
 * waits behind those waiting already, a job whose slice is over gives way, and a job's end lets
 * the next one run at once. Nothing is kept between calls: the turns are the
 * SuspendJob commands returned, in the journal like every change.
 */
public final class GangSchedule {
  private GangSchedule() {}

  /**
   * The suspensions and resumptions that give the right jobs their turn now.
   *
   * @param sliceS SchedulerTimeSlice in seconds
   */
  public static List<Command> turns(ClusterState s, long now, long sliceS) {
    Map<String, List<JobInfo>> byPartition = new TreeMap<>(); // sorted: the same commands for the same state
    Map<String, Integer> free = new HashMap<>(); // per node, the CPUs no job that does not share holds
    for (NodeInfo n : s.nodes().values()) {
      free.put(n.getName(), n.getCpus());
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (!JobStates.holdsResources(j) || j.getAllocationCount() == 0) {
        continue;
      }
      PartitionInfo p = s.partition(j.getPartition()).orElse(null);
      boolean shares = Tenancy.of(j, p).shares();
      if (shares && !j.getCompleting() && (j.getState() == JobState.RUNNING || j.getGangSuspended())) {
        byPartition.computeIfAbsent(j.getPartition(), k -> new ArrayList<>()).add(j);
      } else if (!shares && j.getState() == JobState.RUNNING) {
        for (NodeAllocation a : j.getAllocationList()) {
          free.merge(a.getNode(), -a.getCpus(), Integer::sum);
        }
      }
    }
    List<Command> out = new ArrayList<>();
    for (List<JobInfo> jobs : byPartition.values()) {
      jobs.sort(Comparator.comparing((JobInfo j) -> !j.getGangSuspended() && now - since(j) >= sliceS)
          .thenComparingLong(GangSchedule::since).thenComparing(JobInfo::getGangSuspended)
          .thenComparingInt(JobInfo::getJobId));
      Map<String, Integer> left = new HashMap<>(free);
      for (JobInfo j : jobs) {
        boolean runs = j.getAllocationList().stream().allMatch(a -> left.getOrDefault(a.getNode(), 0) >= a.getCpus());
        if (runs) {
          j.getAllocationList().forEach(a -> left.merge(a.getNode(), -a.getCpus(), Integer::sum));
        }
        if (runs == j.getGangSuspended()) {
          out.add(new Command.SuspendJob(j.getJobId(), now, runs, false, true));
        }
      }
    }
    return out;
  }

  /** When the job last began to run or to wait: its start, or its last suspension or resumption. */
  private static long since(JobInfo j) {
    return Math.max(j.getStartTime(), j.getSuspendTime());
  }
}
