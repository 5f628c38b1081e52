package org.corral.cli.golden;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.HoldJobsRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoReply;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoReply;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Response;

/** Answers the user-command requests from fixed state, as slurmctld would for it. */
final class FakeController {
  private FakeController() {}

  static RpcChannel of(List<JobInfo> jobs, List<NodeInfo> nodes, List<PartitionInfo> parts,
      long lastUpdate) {
    return request -> switch (request.getBodyCase()) {
      case JOB_INFO -> {
        List<Integer> ids = request.getJobInfo().getJobIdsList();
        List<Integer> users = request.getJobInfo().getUserIdsList();
        List<JobInfo> found = jobs.stream() // an array's id names its tasks too, as the controller's
            .filter(j -> ids.isEmpty() || ids.contains(j.getJobId()) || ids.contains(j.getArrayJobId()))
            .filter(j -> !ids.isEmpty() || users.isEmpty() || users.contains(j.getUserId())).toList();
        if (!ids.isEmpty() && found.isEmpty()) {
          yield error(SlurmError.INVALID_JOB_ID);
        }
        yield Response.newBuilder().setJobInfo(JobInfoReply.newBuilder()
            .setLastUpdate(lastUpdate).addAllJobs(found)).build();
      }
      case NODE_INFO -> Response.newBuilder().setNodeInfo(NodeInfoReply.newBuilder()
          .setLastUpdate(lastUpdate).addAllNodes(nodes)).build();
      case PARTITION_INFO -> Response.newBuilder().setPartitionInfo(PartitionInfoReply
          .newBuilder().setLastUpdate(lastUpdate).addAllPartitions(parts)).build();
      case PING -> Response.newBuilder()
          .setPing(PingReply.newBuilder().setHost("vm").setPrimary(true)).build();
      case HOLD_JOBS -> hold(request.getHoldJobs(), jobs);
      default -> error(SlurmError.INVALID_MESSAGE);
    };
  }

  private static Response hold(HoldJobsRequest req, List<JobInfo> jobs) {
    List<JobResult> results = new ArrayList<>();
    for (int id : req.getJobIdsList()) {
      boolean known = jobs.stream().anyMatch(j -> j.getJobId() == id);
      results.add(JobResult.newBuilder().setJobId(id)
          .setErrorCode(known ? 0 : SlurmError.INVALID_JOB_ID.code()).build());
    }
    return Response.newBuilder().setJobResults(JobResultsReply.newBuilder().addAllResults(results))
        .build();
  }

  private static Response error(SlurmError e) {
    return Response.newBuilder().setErrorCode(e.code()).setErrorMessage(e.message()).build();
  }
}
