package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.common.SlurmError;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.protocol.msg.StepUsage;
import org.junit.jupiter.api.Test;

class StepStatRequestsTest {
  private final StepStatRequests requests = new StepStatRequests(null, new Authorizer(0));

  private static ClusterState runningJob() {
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, TestStates.spec().build(), 1000);
    return StateMachine.apply(s, new Command.StartJob(1, 1010,
        List.of(NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build())));
  }

  @Test
  void onlyTheOwnerAndAdministratorsMayAsk() {
    ClusterState s = runningJob();
    int owner = s.job(1).orElseThrow().getInfo().getUserId();
    Peer stranger = new Peer(owner + 1, 100, "mallory", null);
    assertThatThrownBy(() -> requests.stat(stranger, StepStatRequest.newBuilder().setJobId(1).build(), s))
        .isInstanceOfSatisfying(SlurmException.class, e -> {
          assertThat(e.error()).isEqualTo(SlurmError.USER_ID_MISSING);
          assertThat(e.getMessage()).isEqualTo("n1");
        });
  }

  @Test
  void unknownJobsArePendingOnesAreNot() {
    ClusterState s = TestStates.submit(TestStates.cluster(1, 8, 4000), 1, TestStates.spec().build(), 1000);
    assertThatThrownBy(() -> requests.stat(Peer.daemon("slurmctld"), StepStatRequest.newBuilder().setJobId(7).build(), s))
        .isInstanceOfSatisfying(SlurmException.class, e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_JOB_ID));
    var reply = requests.stat(Peer.daemon("slurmctld"), StepStatRequest.newBuilder().setJobId(1).build(), s);
    assertThat(reply.getJobRunning()).isFalse();
    assertThat(reply.getStepsList()).isEmpty();
  }

  @Test
  void combinesOneStepOverItsNodes() {
    StepUsage a = StepUsage.newBuilder().setJobId(1).setStep("0").setNodes("n1").setNtasks(1).setMaxRssKb(100)
        .setMaxRssNode("n1").setAveRssKb(100).setMinCpuMs(50).setMinCpuNode("n1").setAveCpuMs(50).addPids(10)
        .setUserCpuMs(40).build();
    StepUsage b = StepUsage.newBuilder().setJobId(1).setStep("0").setNodes("n2").setNtasks(3).setMaxRssKb(300)
        .setMaxRssNode("n2").setMaxRssTask(3).setAveRssKb(200).setMinCpuMs(10).setMinCpuNode("n2")
        .setMinCpuTask(2).setAveCpuMs(30).addPids(20).setUserCpuMs(60).setOutOfMemory(true).build();
    StepUsage u = org.corral.ctld.state.StepUsages.combine(List.of(a, b));
    assertThat(u.getNodes()).isEqualTo("n[1-2]");
    assertThat(u.getNtasks()).isEqualTo(4);
    assertThat(u.getMaxRssKb()).isEqualTo(300);
    assertThat(u.getMaxRssNode()).isEqualTo("n2");
    assertThat(u.getMaxRssTask()).isEqualTo(3);
    assertThat(u.getAveRssKb()).isEqualTo(175);
    assertThat(u.getMinCpuMs()).isEqualTo(10);
    assertThat(u.getMinCpuNode()).isEqualTo("n2");
    assertThat(u.getAveCpuMs()).isEqualTo(35);
    assertThat(u.getPidsList()).containsExactly(10L, 20L);
    assertThat(u.getUserCpuMs()).isEqualTo(100);
    assertThat(u.getOutOfMemory()).isTrue();
  }
}
