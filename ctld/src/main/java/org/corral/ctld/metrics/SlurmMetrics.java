package org.corral.ctld.metrics;

import org.corral.protocol.metrics.MetricsText;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.StatsReply;

/**
 * The five endpoints of Slurm 25.11's metrics/openmetrics plugin, with its metric names, labels
 * ({@code node}, {@code partition}, {@code username}, {@code account}), help texts and types
 * (all gauges), computed from one published, immutable {@link ClusterState}: a scrape reads and
 * never waits for the writer or the scheduler.
 */
final class SlurmMetrics {
  private SlurmMetrics() {}

  /** GET /metrics/jobs: the cluster's jobs by state and the resources they hold. */
  static void jobs(MetricsText out, ClusterState s) {
    JobTally all = new JobTally();
    for (JobRecord r : s.jobs().values()) {
      all.add(r.getInfo());
    }
    all.write(out, "");
  }

  /** GET /metrics/jobs-users-accts: the same counts per user and per account with jobs. */
  static void usersAccounts(MetricsText out, ClusterState s) {
    Map<String, JobTally> users = new TreeMap<>();
    Map<String, JobTally> accounts = new TreeMap<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      users.computeIfAbsent(userName(j), k -> new JobTally()).add(j);
      if (!j.getAccount().isEmpty()) {
        accounts.computeIfAbsent(j.getAccount(), k -> new JobTally()).add(j);
      }
    }
    JobTally.write(out, "user_", "username", users);
    JobTally.write(out, "account_", "account", accounts);
  }

  static String userName(JobInfo j) {
    return j.getUserName().isEmpty() ? Integer.toUnsignedString(j.getUserId()) : j.getUserName();
  }

  /** GET /metrics/nodes: each node's CPUs, GPUs and memory, then the cluster's nodes by state. */
  static void nodes(MetricsText out, ClusterState s) {
    var nodes = s.nodesInOrder();
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_cpus", "Total number of cpus in the node", n.getCpus(), "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_cpus_alloc", "Allocated cpus in the node", n.getAllocCpus(), "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_cpus_effective", "CPUs allocatable to jobs not reserved for system usage",
          n.getCpus(), "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_cpus_idle", "Idle cpus in the node", Math.max(0, n.getCpus() - n.getAllocCpus()),
          "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_gpus", "Total number of GPUs in the node", NodeTally.gpus(n), "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_gpus_alloc", "Number of GPUs currently allocated by jobs on the node",
          NodeTally.gpusAlloc(n), "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_memory_alloc_bytes", "Bytes allocated to jobs in the node",
          n.getAllocMemMb() << 20, "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_memory_effective_bytes", "Memory allocatable to jobs not reserved for system usage",
          n.getRealMemoryMb() << 20, "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_memory_free_bytes", "Free memory in bytes of the node", n.getFreeMemMb() << 20,
          "node", n.getName());
    }
    for (NodeInfo n : nodes) {
      out.gauge("slurm_node_memory_bytes", "Total memory in bytes of the node", n.getRealMemoryMb() << 20,
          "node", n.getName());
    }
    Set<String> completing = completingNodes(s);
    NodeTally all = new NodeTally();
    for (NodeInfo n : nodes) {
      all.add(n, completing);
    }
    out.gauge("slurm_nodes", "Total number of nodes", all.nodes);
    for (NodeTally.Count c : NodeTally.Count.values()) {
      String[] nameHelp = NodeTally.CLUSTER.get(c);
      out.gauge("slurm_nodes_" + nameHelp[0], nameHelp[1], all.get(c));
    }
  }

  /** The nodes a completing job still holds (its Epilog or its processes' end not yet seen). */
  private static Set<String> completingNodes(ClusterState s) {
    Set<String> out = new HashSet<>();
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (j.getCompleting()) {
        out.addAll(j.getEpilogNodesList());
        for (NodeAllocation a : j.getAllocationList()) {
          out.add(a.getNode());
        }
      }
    }
    return out;
  }

  /** What /metrics/partitions says of one partition beyond its jobs' counts. */
  private static final class PartitionTally {
    final JobTally jobs = new JobTally();
    final NodeTally nodes = new NodeTally();
    long maxJobNodes;
    long maxJobNodesNoHold;
    long minJobNodes;
    long minJobNodesNoHold;
    long waitPartNodeLimit;

    void addPending(JobInfo j) {
      long max = j.getMaxNodes() == 0 ? j.getMinNodes() : j.getMaxNodes();
      long min = Math.max(j.getMinNodes(), 1);
      maxJobNodes = Math.max(maxJobNodes, max);
      minJobNodes = Math.max(minJobNodes, min);
      if (j.getPriority() != 0) {
        maxJobNodesNoHold = Math.max(maxJobNodesNoHold, max);
        minJobNodesNoHold = Math.max(minJobNodesNoHold, min);
      }
      if (j.getStateReason().equals("PartitionNodeLimit")) {
        waitPartNodeLimit++;
      }
    }
  }

  /** GET /metrics/partitions: each partition's jobs by state, its nodes by state, CPUs, memory. */
  static void partitions(MetricsText out, ClusterState s) {
    Map<String, PartitionTally> parts = new LinkedHashMap<>();
    for (PartitionInfo p : s.partitions()) {
      parts.put(p.getName(), new PartitionTally());
    }
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      for (String name : j.getPartition().split(",")) {
        PartitionTally t = parts.get(name);
        if (t != null) {
          t.jobs.add(j);
          if (j.getState() == JobState.PENDING) {
            t.addPending(j);
          }
        }
      }
    }
    Set<String> completing = completingNodes(s);
    for (PartitionInfo p : s.partitions()) {
      for (String n : p.getNodeNamesList()) {
        NodeInfo node = s.nodes().get(n);
        if (node != null) {
          parts.get(p.getName()).nodes.add(node, completing);
        }
      }
    }
    out.gauge("slurm_partitions", "Total number of partitions", parts.size());
    Map<String, JobTally> jobs = new LinkedHashMap<>();
    parts.forEach((k, v) -> jobs.put(k, v.jobs));
    JobTally.write(out, "partition_", "partition", jobs);
    write(out, parts, "slurm_partition_jobs_max_job_nodes",
        "Max of the max_nodes required of all pending jobs in that partition", t -> t.maxJobNodes);
    write(out, parts, "slurm_partition_jobs_max_job_nodes_nohold",
        "Max of the max_nodes required of all pending jobs in that partition excluding Held jobs",
        t -> t.maxJobNodesNoHold);
    write(out, parts, "slurm_partition_jobs_min_job_nodes",
        "Max of the min_nodes required of all pending jobs in that partition", t -> t.minJobNodes);
    write(out, parts, "slurm_partition_jobs_min_job_nodes_nohold",
        "Max of the min_nodes required of all pending jobs in that partition excluding Held jobs",
        t -> t.minJobNodesNoHold);
    write(out, parts, "slurm_partition_jobs_wait_part_node_limit", "Jobs wait partition node limit",
        t -> t.waitPartNodeLimit);
    for (NodeTally.Count c : NodeTally.Count.values()) {
      String[] nameHelp = NodeTally.PARTITION.get(c);
      write(out, parts, "slurm_partition_nodes_" + nameHelp[0], nameHelp[1], t -> t.nodes.get(c));
    }
    write(out, parts, "slurm_partition_nodes_cpus_efctv",
        "Number of effective CPUs on all nodes, excludes CoreSpec", t -> t.nodes.cpus);
    write(out, parts, "slurm_partition_nodes_cpus_idle", "Number of idle CPUs on all nodes",
        t -> t.nodes.cpusIdle());
    write(out, parts, "slurm_partition_nodes_cpus_alloc", "Number of allocated cpus", t -> t.nodes.cpusAlloc);
    write(out, parts, "slurm_partition_nodes_mem_alloc", "Amount of allocated memory of all nodes",
        t -> t.nodes.memAllocBytes);
    write(out, parts, "slurm_partition_nodes_mem_avail", "Amount of available memory of all nodes",
        t -> t.nodes.memBytes);
    write(out, parts, "slurm_partition_nodes_mem_free", "Amount of free memory in all nodes",
        t -> t.nodes.memFreeBytes);
    write(out, parts, "slurm_partition_nodes_mem_tot", "Total amount of memory of all nodes",
        t -> t.nodes.memBytes);
    write(out, parts, "slurm_partition_cpus", "Partition total cpus", t -> t.nodes.cpus);
    write(out, parts, "slurm_partition_gpus", "Partition total gpus", t -> t.nodes.gpus);
    write(out, parts, "slurm_partition_nodes", "Partition total nodes", t -> t.nodes.nodes);
  }

  private static void write(MetricsText out, Map<String, PartitionTally> parts, String name, String help,
      ToLongFunction<PartitionTally> value) {
    parts.forEach((p, t) -> out.gauge(name, help, value.applyAsLong(t), "partition", p));
  }

  /**
   * GET /metrics/scheduler: sdiag's counters (times in microseconds, as sdiag's), from the same
   * snapshot sdiag reads. Slurm's agent threads and exit reasons have no Corral counterpart: 0.
   */
  static void scheduler(MetricsText out, StatsReply st, ClusterState s) {
    var main = st.getMain();
    var bf = st.getBackfill();
    long outbox = s.outbox().events().size();
    Map<String, Object[]> m = new LinkedHashMap<>();
    m.put("agent_cnt", new Object[] {0L, "Number of agent threads"});
    m.put("agent_queue_size", new Object[] {0L, "Outgoing RPC retry queue length"});
    m.put("agent_thread_cnt", new Object[] {0L, "Total active agent-created threads"});
    m.put("bf_depth_mean", new Object[] {mean(bf.getDepthTotal(), bf.getCount()), "Mean backfill cycle depth"});
    m.put("bf_mean_cycle", new Object[] {mean(bf.getTotalUs(), bf.getCount()), "Mean backfill cycle time"});
    m.put("bf_mean_table_sz", new Object[] {0L, "Mean backfill table size"});
    m.put("bf_queue_len_mean", new Object[] {mean(bf.getQueueTotal(), bf.getCount()), "Mean backfill queue length"});
    m.put("bf_try_depth_mean", new Object[] {mean(bf.getDepthTotal(), bf.getCount()), "Mean depth attempts in backfill"});
    m.put("backfilled_het_jobs", new Object[] {0L, "Heterogeneous components backfilled"});
    m.put("backfilled_jobs", new Object[] {st.getBackfilledSinceStart(), "Total backfilled jobs since reset"});
    m.put("bf_active", new Object[] {0L, "Backfill scheduler active jobs"});
    m.put("bf_cycle_cnt", new Object[] {bf.getCount(), "Backfill cycle count"});
    m.put("bf_cycle_last", new Object[] {bf.getLastUs(), "Last backfill cycle time"});
    m.put("bf_cycle_max", new Object[] {bf.getMaxUs(), "Max backfill cycle time"});
    m.put("bf_cycle_tot", new Object[] {bf.getTotalUs(), "Sum of backfill cycle times"});
    m.put("bf_depth_tot", new Object[] {bf.getDepthTotal(), "Sum of backfill job depths"});
    m.put("bf_depth_try_tot", new Object[] {bf.getDepthTotal(), "Sum of backfill depth attempts"});
    m.put("bf_last_depth", new Object[] {bf.getLastDepth(), "Last backfill depth"});
    m.put("bf_last_depth_try", new Object[] {bf.getLastDepth(), "Last backfill depth attempts"});
    m.put("bf_queue_len", new Object[] {bf.getLastQueue(), "Backfill queue length"});
    m.put("bf_queue_len_tot", new Object[] {bf.getQueueTotal(), "Sum of backfill queue lengths"});
    m.put("bf_table_size", new Object[] {0L, "Backfill table size"});
    m.put("bf_table_size_tot", new Object[] {0L, "Sum of backfill table sizes"});
    m.put("bf_when_last_cycle", new Object[] {st.getLastBackfillTime(), "Timestamp of last backfill cycle"});
    m.put("sdiag_jobs_canceled", new Object[] {st.getJobsCanceled(), "Jobs canceled since reset"});
    m.put("sdiag_jobs_completed", new Object[] {st.getJobsCompleted(), "Jobs completed since reset"});
    m.put("sdiag_jobs_failed", new Object[] {st.getJobsFailed(), "Jobs failed since reset"});
    m.put("sdiag_jobs_pending", new Object[] {(long) st.getJobsPending(), "Jobs pending at timestamp"});
    m.put("sdiag_jobs_running", new Object[] {(long) st.getJobsRunning(), "Jobs running at timestamp"});
    m.put("sdiag_jobs_started", new Object[] {st.getJobsStarted(), "Jobs started since reset"});
    m.put("sdiag_jobs_submitted", new Object[] {st.getJobsSubmitted(), "Jobs submitted since reset"});
    m.put("sdiag_job_states_ts", new Object[] {st.getNow(), "Job states timestamp"});
    m.put("last_backfilled_jobs", new Object[] {st.getBackfilled(), "Backfilled jobs since last cycle"});
    m.put("sdiag_latency", new Object[] {0L, "Measurement latency"});
    m.put("schedule_cycle_cnt", new Object[] {main.getCount(), "Scheduling cycle count"});
    m.put("schedule_cycle_depth", new Object[] {main.getDepthTotal(), "Processed jobs depth total"});
    m.put("schedule_cycle_last", new Object[] {main.getLastUs(), "Last scheduling cycle time"});
    m.put("schedule_cycle_max", new Object[] {main.getMaxUs(), "Max scheduling cycle time"});
    m.put("schedule_cycle_tot", new Object[] {main.getTotalUs(), "Sum of scheduling cycle times"});
    m.put("schedule_queue_len", new Object[] {main.getLastQueue(), "Jobs pending queue length"});
    m.put("sched_exit_end", new Object[] {main.getCount(), "End of job queue"});
    m.put("sched_exit_max_depth", new Object[] {0L, "Hit default_queue_depth"});
    m.put("sched_exit_max_job_start", new Object[] {0L, "Hit sched_max_job_start"});
    m.put("sched_exit_lic", new Object[] {0L, "Blocked on licenses"});
    m.put("sched_exit_rpc_cnt", new Object[] {0L, "Hit max_rpc_cnt"});
    m.put("sched_exit_timeout", new Object[] {0L, "Timeout (max_sched_time)"});
    m.put("bf_exit_end", new Object[] {bf.getCount(), "End of job queue"});
    m.put("bf_exit_max_job_start", new Object[] {0L, "Hit bf_max_job_start"});
    m.put("bf_exit_max_job_test", new Object[] {0L, "Hit bf_max_job_test"});
    m.put("bf_exit_state_changed", new Object[] {0L, "System state changed"});
    m.put("bf_exit_table_limit", new Object[] {0L, "Hit table size limit (bf_node_space_size)"});
    m.put("bf_exit_timeout", new Object[] {0L, "Timeout (bf_max_time)"});
    m.put("sched_mean_cycle", new Object[] {mean(main.getTotalUs(), main.getCount()), "Mean scheduling cycle time"});
    m.put("sched_mean_depth_cycle", new Object[] {mean(main.getDepthTotal(), main.getCount()),
        "Mean depth of scheduling cycles"});
    m.put("server_thread_cnt", new Object[] {(long) st.getServerThreads(), "Active slurmctld threads count"});
    m.put("slurmdbd_queue_size", new Object[] {outbox, "Queued messages to SlurmDBD"});
    m.put("last_proc_req_start", new Object[] {0L, "Timestamp of last process request start"});
    m.put("sched_stats_timestamp", new Object[] {st.getNow(), "Statistics snapshot timestamp"});
    m.forEach((name, v) -> out.gauge("slurm_" + name, (String) v[1], ((Number) v[0]).doubleValue()));
  }

  private static long mean(long total, long count) {
    return count == 0 ? 0 : total / count;
  }
}
