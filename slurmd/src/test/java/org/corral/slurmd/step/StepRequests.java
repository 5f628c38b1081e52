package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.function.Consumer;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepInfo;
import org.corral.protocol.msg.StepSpec;
import org.corral.testkit.TestUsers;

/**
 * Launch orders as the controller sends them: job 42 on n1 (2 CPUs) and n2 (1 CPU), step 0 of
 * three tasks, two on n1 (ids 0, 1) and one on n2 (id 2); this node is n1 unless changed.
 */
final class StepRequests {
  static final byte[] IO_KEY = {1, 2, 3, 4};

  private StepRequests() {}

  static LaunchTasksRequest.Builder request(TestUsers.User user, String workDir, int ioPort,
      Consumer<StepSpec.Builder> specChanges) {
    JobInfo job = JobInfo.newBuilder().setJobId(42).setName("env").setUserId(user.uid()).setUserName(user.name())
        .setGroupId(user.gid()).setPartition("debug").setState(JobState.RUNNING).setNodes("n[1-2]").setNumNodes(2)
        .setNumCpus(3).setWorkDir(workDir)
        .addAllocation(NodeAllocation.newBuilder().setNode("n1").setCpus(2))
        .addAllocation(NodeAllocation.newBuilder().setNode("n2").setCpus(1))
        .build();
    StepInfo step = StepInfo.newBuilder().setJobId(42).setStepId(0).setName("env").setState(JobState.RUNNING)
        .setNodes("n[1-2]").addAllNodeNames(List.of("n1", "n2")).addAllTasksOnNode(List.of(2, 1))
        .addAllCpusOnNode(List.of(2, 1)).setNumTasks(3).setNumCpus(3).setCpusPerTask(1).build();
    StepSpec.Builder spec = StepSpec.newBuilder().setJobId(42).setName("env").addAllArgv(List.of("env"))
        .addAllEnvironment(List.of("PATH=/usr/bin:/bin", "HOME=/tmp", "SLURM_JOB_ID=42", "SLURM_NTASKS=3",
            "SLURM_STEP_ID=0", "SLURM_UMASK=0022", "SLURM_TASK_PID=999", "SLURM_STEP_NODELIST=n[1-2]"))
        .setWorkDir(workDir).setIoHost("127.0.0.1").setIoPort(ioPort).setStdinTask(0);
    specChanges.accept(spec);
    return LaunchTasksRequest.newBuilder().setJob(job).setStep(step).setSpec(spec).setIoKey(ByteString.copyFrom(IO_KEY))
        .setNodeIndex(0).addAllTaskIds(List.of(0, 1)).setClusterName("testcluster");
  }
}
