package org.corral.dbd;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.corral.dbd.storage.JobSelection;
import org.corral.dbd.storage.JobStore;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;

/**
 * sacct's selection: the database narrows by cluster, user, account, partition, name and the
 * time window; what needs the whole record (array task ranges, which state the job was in
 * during the window) is decided here.
 */
final class JobQuery {
  private final JobStore store;
  private final String defaultCluster;

  JobQuery(JobStore store, String defaultCluster) {
    this.store = store;
    this.defaultCluster = defaultCluster;
  }

  /**
   * @param callerUid the asking user (kernel-vouched); without -a and -u a user sees their own
   *     jobs, root and SlurmUser see everyone's
   */
  JobQueryReply run(JobQueryRequest q, int callerUid, boolean privileged, long now) throws SQLException {
    return run(q, callerUid, privileged, now, null);
  }

  /**
   * @param onlyFor with PrivateData=jobs, the plain user asking: only its jobs and those charged to
   *     the accounts it coordinates are selected, whatever was asked; null: no such limit
   */
  JobQueryReply run(JobQueryRequest q, int callerUid, boolean privileged, long now, PrivateView.Viewer onlyFor)
      throws SQLException {
    JobSelection sel = new JobSelection();
    if (onlyFor != null) {
      List<Object> vals = new ArrayList<>();
      vals.add((long) onlyFor.uid());
      vals.addAll(onlyFor.coordinated());
      sel.where("(user_id = ?" + (onlyFor.coordinated().isEmpty() ? "" : " OR account IN ("
          + String.join(", ", java.util.Collections.nCopies(onlyFor.coordinated().size(), "?")) + ")") + ")",
          vals.toArray());
    }
    if (!q.getAllClusters()) {
      sel.in("cluster", q.getClustersCount() > 0 ? q.getClustersList() : List.of(defaultCluster));
    }
    List<Long> users = new ArrayList<>();
    q.getUserIdsList().forEach(u -> users.add(Integer.toUnsignedLong(u)));
    if (users.isEmpty() && !q.getAllUsers() && q.getJobIdsCount() == 0 && !privileged) {
      users.add((long) callerUid);
    }
    sel.in("user_id", users);
    sel.in("account", q.getAccountsList());
    sel.in("partition_name", q.getPartitionsList());
    sel.in("job_name", q.getNamesList());
    List<JobId> ids = new ArrayList<>();
    for (String s : q.getJobIdsList()) {
      ids.add(JobId.parse(s));
    }
    if (!ids.isEmpty()) {
      Set<Long> whole = new HashSet<>();
      for (JobId id : ids) {
        whole.add(id.job());
      }
      List<Long> w = List.copyOf(whole);
      String marks = String.join(", ", java.util.Collections.nCopies(w.size(), "?"));
      List<Object> vals = new ArrayList<>(w);
      vals.addAll(w);
      sel.where("(job_id IN (" + marks + ") OR array_job_id IN (" + marks + "))", vals.toArray());
    }
    if (!q.getDuplicates()) {
      // without -D only a job's latest record: a requeued job's earlier runs are rows of their own
      sel.where("NOT EXISTS (SELECT 1 FROM corral_job later WHERE later.cluster = corral_job.cluster"
          + " AND later.job_id = corral_job.job_id AND later.submit_time > corral_job.submit_time)");
    }
    long end = q.getEnd() > 0 ? q.getEnd() : now;
    long start = q.getStart();
    if (q.getStatesCount() == 0) {
      // Active at some time in the window: submitted before its end, not ended before its start.
      sel.where("(end_time = 0 OR end_time >= ?)", start);
    }
    int pageSize = q.getPageSize();
    JobQueryReply.Builder out = JobQueryReply.newBuilder();
    JobStore.Cursor cursor = q.getAfterJobId() == 0 && q.getAfterSubmitTime() == 0 ? null
        : new JobStore.Cursor(q.getAfterSubmitTime(), Integer.toUnsignedLong(q.getAfterArrayJobId()),
            Integer.toUnsignedLong(q.getAfterArrayTaskId()), Integer.toUnsignedLong(q.getAfterJobId()));
    while (true) {
      List<AcctJob> rows = store.find(sel, cursor, pageSize);
      for (AcctJob j : rows) {
        if (selected(q, ids, j, start, end)) {
          out.addJobs(j);
        }
      }
      if (pageSize == 0 || rows.size() < pageSize) {
        return out.build(); // everything scanned
      }
      AcctJob last = rows.get(rows.size() - 1);
      cursor = JobStore.Cursor.after(last);
      if (out.getJobsCount() > 0) {
        return out.setMore(true).setNextJobId(last.getJobId()).setNextSubmitTime(last.getSubmitTime())
            .setNextArrayJobId(last.getArrayJobId()).setNextArrayTaskId(last.getArrayTaskId()).build();
      }
    }
  }

  private static boolean selected(JobQueryRequest q, List<JobId> ids, AcctJob j, long start, long end) {
    if (!ids.isEmpty() && ids.stream().noneMatch(id -> id.matches(j))) {
      return false;
    }
    if (j.getSubmitTime() > end) {
      return false;
    }
    if (q.getStatesCount() > 0 && q.getStatesList().stream().noneMatch(s -> wasIn(j, s, start, end))) {
      return false;
    }
    return q.getNodeListCount() == 0 || onNodes(j, q.getNodeListList());
  }

  /** Whether the job was in {@code state} at some time in [start, end], as sacct -s asks. */
  static boolean wasIn(AcctJob j, JobState state, long start, long end) {
    return switch (state) {
      case PENDING -> j.getSubmitTime() <= end && (j.getStartTime() == 0 || j.getStartTime() >= start);
      case RUNNING -> j.getStartTime() > 0 && j.getStartTime() <= end
          && (j.getEndTime() == 0 || j.getEndTime() >= start);
      default -> j.getState() == state && j.getEndTime() >= start && j.getEndTime() <= end;
    };
  }

  private static boolean onNodes(AcctJob j, List<String> nodes) {
    List<String> mine = org.corral.common.Hostlist.expand(j.getNodes());
    return mine.stream().anyMatch(nodes::contains);
  }

  /** A -j value: "123", "123_4", "123.batch", "123_4.0" (the step part is the printer's). */
  record JobId(long job, long task) {
    static final long ANY = -1;

    static JobId parse(String s) {
      String base = s.contains(".") ? s.substring(0, s.indexOf('.')) : s;
      try {
        if (base.contains("_")) {
          return new JobId(Long.parseLong(base.substring(0, base.indexOf('_'))),
              Long.parseLong(base.substring(base.indexOf('_') + 1)));
        }
        return new JobId(Long.parseLong(base), ANY);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Invalid job id: " + s);
      }
    }

    boolean matches(AcctJob j) {
      if (task == ANY) {
        return j.getJobId() == job || j.getArrayJobId() == job;
      }
      if (j.getArrayJobId() != job) {
        return j.getJobId() == job && task == ANY;
      }
      if (!j.getArrayTasks().isEmpty()) { // the array's record of tasks still pending
        return org.corral.common.ArrayTasks.fromString(j.getArrayTasks()).contains((int) task);
      }
      return j.getArrayTaskId() == task;
    }
  }
}
