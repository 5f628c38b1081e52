package org.corral.protocol.dataparser;

import org.corral.protocol.msg.CycleStats;
import org.corral.protocol.msg.RpcStat;
import org.corral.protocol.msg.StatsReply;

/** sdiag's counters as v0.0.42_stats_msg. */
public final class DiagJson {
  private DiagJson() {}

  public static JsonObject of(StatsReply s) {
    JsonObject o = new JsonObject();
    o.put("parts_packed", 1);
    o.set("req_time", NoVal.number(s.getNow()));
    o.set("req_time_start", NoVal.number(s.getSince()));
    o.put("server_thread_count", s.getServerThreads());
    o.put("agent_queue_size", 0);
    o.put("agent_count", 0);
    o.put("agent_thread_count", 0);
    o.put("dbd_agent_queue_size", 0);
    o.put("gettimeofday_latency", 0);
    CycleStats m = s.getMain();
    o.put("schedule_cycle_max", m.getMaxUs());
    o.put("schedule_cycle_last", m.getLastUs());
    o.put("schedule_cycle_sum", m.getTotalUs());
    o.put("schedule_cycle_total", m.getCount());
    o.put("schedule_cycle_mean", mean(m.getTotalUs(), m.getCount()));
    o.put("schedule_cycle_mean_depth", mean(m.getDepthTotal(), m.getCount()));
    long minutes = Math.max(1, (s.getNow() - s.getSince()) / 60);
    o.put("schedule_cycle_per_minute", m.getCount() / minutes);
    o.put("schedule_cycle_depth", m.getDepthTotal());
    o.set("schedule_exit", new JsonObject());
    o.put("schedule_queue_length", m.getLastQueue());
    o.put("jobs_submitted", s.getJobsSubmitted());
    o.put("jobs_started", s.getJobsStarted());
    o.put("jobs_completed", s.getJobsCompleted());
    o.put("jobs_canceled", s.getJobsCanceled());
    o.put("jobs_failed", s.getJobsFailed());
    o.put("jobs_pending", s.getJobsPending());
    o.put("jobs_running", s.getJobsRunning());
    o.set("job_states_ts", NoVal.number(s.getNow()));
    CycleStats b = s.getBackfill();
    o.put("bf_backfilled_jobs", s.getBackfilledSinceStart());
    o.put("bf_last_backfilled_jobs", s.getBackfilled());
    o.put("bf_backfilled_het_jobs", 0);
    o.put("bf_cycle_counter", b.getCount());
    o.put("bf_cycle_mean", mean(b.getTotalUs(), b.getCount()));
    o.put("bf_depth_mean", mean(b.getDepthTotal(), b.getCount()));
    o.put("bf_depth_mean_try", mean(b.getDepthTotal(), b.getCount()));
    o.put("bf_cycle_sum", b.getTotalUs());
    o.put("bf_cycle_last", b.getLastUs());
    o.put("bf_cycle_max", b.getMaxUs());
    o.set("bf_exit", new JsonObject());
    o.put("bf_last_depth", b.getLastDepth());
    o.put("bf_last_depth_try", b.getLastDepth());
    o.put("bf_depth_sum", b.getDepthTotal());
    o.put("bf_depth_try_sum", b.getDepthTotal());
    o.put("bf_queue_len", b.getLastQueue());
    o.put("bf_queue_len_mean", mean(b.getQueueTotal(), b.getCount()));
    o.put("bf_queue_len_sum", b.getQueueTotal());
    o.put("bf_table_size", 0);
    o.put("bf_table_size_sum", 0);
    o.put("bf_table_size_mean", 0);
    o.set("bf_when_last_cycle", NoVal.number(s.getLastBackfillTime()));
    o.put("bf_active", false);
    JsonArray types = o.putArray("rpcs_by_message_type");
    for (RpcStat r : s.getByTypeList()) {
      JsonObject t = types.addObject();
      t.put("type_id", r.getId());
      t.put("message_type", r.getName());
      t.put("count", r.getCount());
      t.put("queued", 0);
      t.put("dropped", 0);
      t.put("cycle_last", 0);
      t.put("cycle_max", 0);
      t.put("total_time", r.getTotalUs());
      t.set("average_time", NoVal.number(mean(r.getTotalUs(), r.getCount())));
    }
    JsonArray users = o.putArray("rpcs_by_user");
    for (RpcStat r : s.getByUserList()) {
      JsonObject u = users.addObject();
      u.put("user_id", r.getId());
      u.put("user", r.getName());
      u.put("count", r.getCount());
      u.put("total_time", r.getTotalUs());
      u.set("average_time", NoVal.number(mean(r.getTotalUs(), r.getCount())));
    }
    o.putArray("pending_rpcs");
    o.putArray("pending_rpcs_by_hostlist");
    return o;
  }

  private static long mean(long total, long count) {
    return count == 0 ? 0 : total / count;
  }
}
