package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobRecord;

/** squeue's and scontrol's job queries over the published state: only the rows asked for are sent. */
final class JobQueries {
  private JobQueries() {}

  /**
   * The jobs named (an array's id names its record and its started tasks), or every job of the
   * users named, or every job; of those only the ones {@code visible} lets the asker see
   * (PrivateData=jobs), a job it hides answered as one that does not exist, as by Slurm.
   */
  static JobInfoReply jobInfo(JobInfoRequest req, ClusterState s) {
    return jobInfo(req, s, j -> true);
  }

  static JobInfoReply jobInfo(JobInfoRequest req, ClusterState s, Predicate<JobInfo> visible) {
    JobInfoReply.Builder b = JobInfoReply.newBuilder().setLastUpdate(s.lastUpdate());
    var ids = req.getJobIdsList();
    Set<Integer> users = new HashSet<>(req.getUserIdsList());
    if (ids.isEmpty()) {
      for (JobRecord r : s.jobs().values()) {
        if ((users.isEmpty() || users.contains(r.getInfo().getUserId())) && visible.test(r.getInfo())) {
          b.addJobs(r.getInfo());
        }
      }
    } else {
      for (int id : ids) {
        s.job(id).filter(r -> visible.test(r.getInfo())).ifPresent(r -> b.addJobs(r.getInfo()));
        if (s.job(id).map(r -> r.getInfo().getArrayJobId() == id).orElse(false)) {
          // an array's id names all of it: its record, then its started tasks (newest first, as Slurm lists them)
          List<JobRecord> tasks = new ArrayList<>();
          for (JobRecord r : s.jobs().tailMap(id, false).values()) { // tasks split off get later ids
            if (r.getInfo().getArrayJobId() == id && r.getInfo().getJobId() != id && visible.test(r.getInfo())) {
              tasks.add(r);
            }
          }
          for (int i = tasks.size() - 1; i >= 0; i--) {
            b.addJobs(tasks.get(i).getInfo());
          }
        }
      }
      if (b.getJobsCount() == 0) {
        throw new SlurmException(SlurmError.INVALID_JOB_ID);
      }
    }
    return b.build();
  }
}
