package org.corral.slurmd.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;
import org.corral.testkit.TestUsers;

/** Launch requests for tests: a one-node job of one cpu on node n1 of cluster "testcluster". */
final class LaunchRequests {
  private LaunchRequests() {}

  static LaunchBatchRequest batch(int jobId, TestUsers.User user, Path workDir, String script,
      List<String> environment, Consumer<JobSpec.Builder> specChanges) {
    JobInfo job = JobInfo.newBuilder()
        .setJobId(jobId)
        .setName("testjob")
        .setUserId(user.uid())
        .setUserName(user.name())
        .setGroupId(user.gid())
        .setPartition("debug")
        .setNodes("n1")
        .setNumNodes(1)
        .setNumCpus(1)
        .setNumTasks(1)
        .setCpusPerTask(1)
        .setMemPerCpuMb(100)
        .setWorkDir(workDir.toString())
        .setSubmitHost("subhost")
        .build();
    JobSpec.Builder spec = JobSpec.newBuilder()
        .setName("testjob")
        .setScript(script)
        .addAllEnvironment(environment)
        .setWorkDir(workDir.toString());
    specChanges.accept(spec);
    return LaunchBatchRequest.newBuilder()
        .setJob(job)
        .setSpec(spec.build())
        .setClusterName("testcluster")
        .setCpusOnNode(1)
        .setMemOnNodeMb(100)
        .build();
  }
}
