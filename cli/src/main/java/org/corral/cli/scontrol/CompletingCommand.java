package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol completing}: each job still COMPLETING, with its nodes that are still completing
 * it and those of them that are DOWN, as Slurm 22.05 prints it (one line each, a space at its end):
 * {@code JobId=5 EndTime=2026-11-28T12:58:52 CompletingTime=00:00:01 Nodes(COMPLETING)=n[1-2] }.
 */
final class CompletingCommand {
  private CompletingCommand() {}

  static int run(Cli cli) {
    List<JobInfo> jobs;
    Map<String, NodeInfo> nodes = new HashMap<>();
    try {
      Response r = cli.controller().get().call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build());
      if (r.getErrorCode() != 0) {
        cli.err().println("slurm_load_jobs error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      jobs = r.getJobInfo().getJobsList();
      Response n = cli.controller().get().call(Request.newBuilder().setNodeInfo(NodeInfoRequest.getDefaultInstance()).build());
      n.getNodeInfo().getNodesList().forEach(x -> nodes.put(x.getName(), x));
    } catch (IOException e) {
      cli.err().println("slurm_load_jobs error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    for (JobInfo j : ScontrolCommand.inListOrder(jobs)) {
      if (!j.getCompleting()) {
        continue;
      }
      List<String> held = j.getEpilogNodesCount() > 0 ? j.getEpilogNodesList() : Hostlist.expand(j.getNodes());
      List<String> completing = new ArrayList<>();
      List<String> down = new ArrayList<>();
      for (String name : held) {
        NodeInfo node = nodes.get(name);
        (node != null && node.getBaseState() == NodeBaseState.NODE_DOWN ? down : completing).add(name);
      }
      StringBuilder line = new StringBuilder("JobId=").append(Integer.toUnsignedString(j.getJobId()))
          .append(" EndTime=").append(SlurmTimes.iso(j.getEndTime(), cli.clock().getZone(), "None"))
          .append(" CompletingTime=").append(SlurmTimes.hms(now - j.getEndTime())).append(' ');
      if (!completing.isEmpty()) {
        line.append("Nodes(COMPLETING)=").append(Hostlist.compress(completing)).append(' ');
      }
      if (!down.isEmpty()) {
        line.append("Nodes(DOWN)=").append(Hostlist.compress(down)).append(' ');
      }
      cli.out().println(line);
    }
    return 0;
  }
}
