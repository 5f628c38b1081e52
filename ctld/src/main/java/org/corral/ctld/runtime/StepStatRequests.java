package org.corral.ctld.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepStatReply;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.protocol.msg.StepUsage;

/**
 * sstat's question: the live usage of a running job's steps, gathered from the job's nodes and
 * combined per step. Only the job's owner and administrators may ask; anyone else gets "Invalid
 * user id" as from Slurm, with the job's nodes in the message (sstat names them).
 */
final class StepStatRequests {
  private final NodeAgent agent;
  private final Authorizer auth;

  StepStatRequests(NodeAgent agent, Authorizer auth) {
    this.agent = agent;
    this.auth = auth;
  }

  StepStatReply stat(Peer peer, StepStatRequest req, ClusterState s) {
    JobRecord rec = s.job(req.getJobId()).orElseThrow(() -> new SlurmException(SlurmError.INVALID_JOB_ID));
    JobInfo job = rec.getInfo();
    StepStatReply.Builder reply = StepStatReply.newBuilder().setJobUserId(job.getUserId());
    if (job.getState() != JobState.RUNNING || job.getCompleting()) {
      return reply.build();
    }
    if (!auth.mayActOnJob(peer, job.getUserId())) {
      throw new SlurmException(SlurmError.USER_ID_MISSING, job.getNodes());
    }
    reply.setJobRunning(true);
    Map<String, List<StepUsage>> byStep = new LinkedHashMap<>();
    for (NodeAllocation a : job.getAllocationList()) {
      s.node(a.getNode()).flatMap(node -> agent.stepStat(node, req)).ifPresent(r -> {
        for (StepUsage u : r.getStepsList()) {
          byStep.computeIfAbsent(u.getStep(), k -> new ArrayList<>()).add(u);
        }
      });
    }
    byStep.values().forEach(parts -> reply.addSteps(combine(parts)));
    return reply.build();
  }

  /** One step's usage over its nodes: maxima and minima with where they occurred, averages per task. */
  static StepUsage combine(List<StepUsage> parts) {
    StepUsage first = parts.get(0);
    if (parts.size() == 1) {
      return first;
    }
    StepUsage.Builder b = first.toBuilder();
    List<String> nodes = new ArrayList<>();
    long tasks = 0;
    long aveVm = 0;
    long aveRss = 0;
    long avePages = 0;
    long aveCpu = 0;
    long aveRead = 0;
    long aveWrite = 0;
    long freq = 0;
    for (StepUsage u : parts) {
      nodes.addAll(Hostlist.expand(u.getNodes()));
      long n = Math.max(1, u.getNtasks());
      tasks += n;
      aveVm += u.getAveVmsizeKb() * n;
      aveRss += u.getAveRssKb() * n;
      avePages += u.getAvePages() * n;
      aveCpu += u.getAveCpuMs() * n;
      aveRead += u.getAveDiskRead() * n;
      aveWrite += u.getAveDiskWrite() * n;
      freq += u.getAveCpuFreqKhz() * n;
      if (u == first) {
        continue;
      }
      if (u.getMaxVmsizeKb() > b.getMaxVmsizeKb()) {
        b.setMaxVmsizeKb(u.getMaxVmsizeKb()).setMaxVmsizeNode(u.getMaxVmsizeNode()).setMaxVmsizeTask(u.getMaxVmsizeTask());
      }
      if (u.getMaxRssKb() > b.getMaxRssKb()) {
        b.setMaxRssKb(u.getMaxRssKb()).setMaxRssNode(u.getMaxRssNode()).setMaxRssTask(u.getMaxRssTask());
      }
      if (u.getMaxPages() > b.getMaxPages()) {
        b.setMaxPages(u.getMaxPages()).setMaxPagesNode(u.getMaxPagesNode()).setMaxPagesTask(u.getMaxPagesTask());
      }
      if (u.getMinCpuMs() < b.getMinCpuMs()) {
        b.setMinCpuMs(u.getMinCpuMs()).setMinCpuNode(u.getMinCpuNode()).setMinCpuTask(u.getMinCpuTask());
      }
      if (u.getMaxDiskRead() > b.getMaxDiskRead()) {
        b.setMaxDiskRead(u.getMaxDiskRead()).setMaxDiskReadNode(u.getMaxDiskReadNode())
            .setMaxDiskReadTask(u.getMaxDiskReadTask());
      }
      if (u.getMaxDiskWrite() > b.getMaxDiskWrite()) {
        b.setMaxDiskWrite(u.getMaxDiskWrite()).setMaxDiskWriteNode(u.getMaxDiskWriteNode())
            .setMaxDiskWriteTask(u.getMaxDiskWriteTask());
      }
      b.addAllPids(u.getPidsList()).setUserCpuMs(b.getUserCpuMs() + u.getUserCpuMs())
          .setSysCpuMs(b.getSysCpuMs() + u.getSysCpuMs()).setOutOfMemory(b.getOutOfMemory() || u.getOutOfMemory());
    }
    return b.setNodes(Hostlist.compress(nodes)).setNtasks((int) tasks).setAveVmsizeKb(aveVm / tasks)
        .setAveRssKb(aveRss / tasks).setAvePages(avePages / tasks).setAveCpuMs(aveCpu / tasks)
        .setAveDiskRead(aveRead / tasks).setAveDiskWrite(aveWrite / tasks).setAveCpuFreqKhz(freq / tasks).build();
  }
}
