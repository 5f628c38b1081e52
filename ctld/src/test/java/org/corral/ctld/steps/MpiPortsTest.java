package org.corral.ctld.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepInfo;
import org.junit.jupiter.api.Test;

class MpiPortsTest {
  private static final MpiPorts RANGE = new MpiPorts(12000, 12009);

  private static StepInfo holding(String ports, String... nodes) {
    return StepInfo.newBuilder().setState(JobState.RUNNING).setResvPorts(ports).addAllNodeNames(List.of(nodes)).build();
  }

  @Test
  void theRangeComesFromMpiParams() {
    assertThat(MpiPorts.of("ports=12000-12999")).contains(new MpiPorts(12000, 12999));
    assertThat(MpiPorts.of(null)).isEmpty();
    assertThatThrownBy(() -> MpiPorts.of("ports=9-2")).hasMessageContaining("invalid ports range \"9-2\"");
  }

  @Test
  void oneMorePortThanTheMostTasksOnANodeAsTheReferenceGives() throws Exception {
    // srun -N2 -n3 (2 and 1 tasks) got 3 ports on Slurm 22.05, -n1 got 2
    assertThat(RANGE.reserve(List.of("n1", "n2"), List.of(2, 1), List.of())).isEqualTo("12000-12002");
    assertThat(RANGE.reserve(List.of("n1"), List.of(1), List.of())).isEqualTo("12000-12001");
  }

  @Test
  void portsHeldOnASharedNodeAreSkippedOthersNot() throws Exception {
    List<StepInfo> running = List.of(holding("12000-12002", "n1", "n2"), holding("12004-12005", "n3"),
        holding("12003-12003", "n9").toBuilder().setState(JobState.COMPLETED).build());
    assertThat(RANGE.reserve(List.of("n2", "n3"), List.of(1), running)).isEqualTo("12006-12007");
    assertThat(RANGE.reserve(List.of("n2"), List.of(1), running)).isEqualTo("12003-12004");
    assertThat(RANGE.reserve(List.of("n4"), List.of(1), running)).isEqualTo("12000-12001");
  }

  @Test
  void tooManyOrNoneFreeAreSlurmsErrors() {
    assertThatThrownBy(() -> RANGE.reserve(List.of("n1"), List.of(10), List.of()))
        .isInstanceOfSatisfying(StepUnavailable.class, e -> assertThat(e.error()).isEqualTo(SlurmError.PORTS_INVALID));
    assertThatThrownBy(() -> RANGE.reserve(List.of("n1"), List.of(4), List.of(holding("12002-12007", "n1"))))
        .isInstanceOfSatisfying(StepUnavailable.class, e -> assertThat(e.error()).isEqualTo(SlurmError.PORTS_BUSY));
  }
}
