package org.corral.ctld.metrics;

import org.corral.protocol.metrics.MetricsText;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;

/**
 * GET /metrics/corral: what a site's exporter adds to Slurm's and Slurm's endpoints lack. Pending
 * jobs per user and account by reason and running ones per user and account; scheduling passes
 * and backfill passes, each RPC type and the journal's sync as histograms (seconds); RPCs per
 * user; the accounting outbox (records waiting for slurmdbd) and the age of its oldest.
 */
final class CorralMetrics {
  private CorralMetrics() {}

  static void write(MetricsText out, ClusterState s, Timings timings, OutboxAge outbox,
      IntFunction<String> userName) {
    Map<String, Long> userPending = new TreeMap<>();
    Map<String, Long> accountPending = new TreeMap<>();
    Map<String, Long> userRunning = new TreeMap<>();
    Map<String, Long> accountRunning = new TreeMap<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      String user = SlurmMetrics.userName(j);
      String account = j.getAccount().isEmpty() ? "(null)" : j.getAccount();
      if (j.getState() == JobState.PENDING) {
        String reason = j.getStateReason().isEmpty() ? "None" : j.getStateReason();
        userPending.merge(user + '\0' + reason, 1L, Long::sum);
        accountPending.merge(account + '\0' + reason, 1L, Long::sum);
      } else if (j.getState() == JobState.RUNNING) {
        userRunning.merge(user, 1L, Long::sum);
        accountRunning.merge(account, 1L, Long::sum);
      }
    }
    userPending.forEach((k, n) -> out.gauge("corral_user_jobs_pending", "Pending jobs of a user by reason", n,
        "username", k.substring(0, k.indexOf('\0')), "reason", k.substring(k.indexOf('\0') + 1)));
    accountPending.forEach((k, n) -> out.gauge("corral_account_jobs_pending",
        "Pending jobs of an account by reason", n,
        "account", k.substring(0, k.indexOf('\0')), "reason", k.substring(k.indexOf('\0') + 1)));
    userRunning.forEach((u, n) -> out.gauge("corral_user_jobs_running", "Running jobs of a user", n,
        "username", u));
    accountRunning.forEach((a, n) -> out.gauge("corral_account_jobs_running", "Running jobs of an account", n,
        "account", a));

    out.histogram("corral_scheduler_pass_seconds", "Duration of scheduling passes", timings.schedulerPass());
    out.histogram("corral_backfill_pass_seconds", "Duration of scheduling passes that planned jobs ahead (backfill)",
        timings.backfillPass());
    timings.rpcByType().forEach((type, h) -> out.histogram("corral_rpc_seconds",
        "Time to serve a request, by Slurm message type", h, "type", type));
    timings.rpcByUser().forEach((uid, v) -> out.counter("corral_rpc_user_requests",
        "Requests served, by user", v[0], "username", userName.apply(uid)));
    timings.rpcByUser().forEach((uid, v) -> out.counter("corral_rpc_user_seconds",
        "Time spent serving requests, by user", v[1] / 1e9, "username", userName.apply(uid)));
    out.histogram("corral_journal_sync_seconds",
        "Write and fdatasync of one batch of journal records (group commit)", timings.journalSync());
    out.gauge("corral_accounting_outbox_records", "Accounting records waiting to be stored by slurmdbd",
        s.outbox().events().size());
    out.gauge("corral_accounting_outbox_oldest_age_seconds",
        "Age of the oldest accounting record waiting for slurmdbd (0 when none waits)",
        outbox.oldestSeconds(s));
  }
}
