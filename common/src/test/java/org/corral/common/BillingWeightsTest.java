package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BillingWeightsTest {
  private static final Map<String, Long> ONE_CPU_8GB = Map.of("cpu", 1L, "mem", 8192L, "node", 1L);

  /** slurm.conf(5), TRESBillingWeights and PriorityFlags=MAX_TRES, and a few more of the same kind. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      # weights                          | cpu | mem MB | nodes | gpus | lic | MAX_TRES | billing
      ''                                 | 1   | 8192   | 1     | 0    | 0   | false    | 1
      ''                                 | 12  | 8192   | 2     | 4    | 0   | true     | 12
      CPU=1.0,Mem=0.25G,GRES/gpu=2.0     | 1   | 8192   | 1     | 0    | 0   | false    | 3.0
      CPU=1.0,Mem=0.25G,GRES/gpu=2.0     | 1   | 8192   | 1     | 0    | 0   | true     | 2.0
      mem=.25                            | 1   | 8192   | 1     | 0    | 0   | false    | 2048
      mem=.25G                           | 1   | 8192   | 1     | 0    | 0   | false    | 2
      Mem=1K                             | 1   | 2      | 1     | 0    | 0   | false    | 2048
      Mem=1T                             | 1   | 2097152| 1     | 0    | 0   | false    | 2
      CPU=1.0,Mem=0.25G,GRES/gpu=2.0     | 4   | 4096   | 1     | 2    | 0   | false    | 9.0
      CPU=1.0,Mem=0.25G,GRES/gpu=2.0     | 4   | 4096   | 1     | 2    | 0   | true     | 4.0
      CPU=1.0,Mem=0.25G,GRES/gpu=8.0     | 4   | 4096   | 1     | 2    | 0   | true     | 16.0
      CPU=1,License/matlab=10            | 2   | 0      | 1     | 0    | 3   | true     | 32
      CPU=1,License/matlab=10            | 2   | 0      | 1     | 0    | 3   | false    | 32
      CPU=2,Node=3                       | 2   | 0      | 2     | 0    | 0   | false    | 10
      CPU=-1,Node=3                      | 2   | 0      | 1     | 0    | 0   | false    | 1
      CPU=1K                             | 2048| 0      | 1     | 0    | 0   | false    | 2
      """)
  void billsAsDocumented(String weights, long cpus, long memMb, long nodes, long gpus, long licenses,
      boolean maxTres, double billing) {
    Map<String, Long> tres = Map.of("cpu", cpus, "mem", memMb, "node", nodes, "gres/gpu", gpus,
        "license/matlab", licenses);
    assertThat(BillingWeights.parse(weights).billing(tres, maxTres)).isCloseTo(billing, within(1e-9));
  }

  @ParameterizedTest
  @CsvSource({"3.0,3", "2.99,2", "0.5,0", "-4,0", "1024.75,1024"})
  void storedAsAWholeNumber(double billing, long stored) {
    // tres.html: the weights are doubles, a job's billing TRES is stored as an integer.
    assertThat(BillingWeights.stored(billing)).isEqualTo(stored);
  }

  @ParameterizedTest
  @ValueSource(strings = {"CPU", "CPU=", "CPU=x", "Cores=1", "GRES=2", "billing=1", "CPU=1,,Mem=2", "Mem=1Q",
      "CPU=NaN", "CPU=Infinity"})
  void refusesWhatIsNotTypeEqualsWeight(String weights) {
    assertThatThrownBy(() -> BillingWeights.parse(weights)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"CPU=1.0,Mem=0.25G,GRES/gpu=2.0", "cpu=1,mem=1,node=1,gres/gpu:a100=4,license/x=1,bb/cray=2"})
  void keepsTheTextAsConfigured(String weights) {
    assertThat(BillingWeights.parse(weights).text()).isEqualTo(weights);
  }

  @ParameterizedTest
  @CsvSource({"GRES/gpu:a100=4,gres/gpu:a100", "Gres/gpu=4,gres/gpu", "LICENSE/Matlab=1,license/Matlab"})
  void typeIsCaseInsensitiveAndNameKept(String weights, String name) {
    assertThat(BillingWeights.parse(weights).perUnit()).containsOnlyKeys(name);
  }

  @ParameterizedTest
  @CsvSource({"''", "'  '"})
  void blankIsNone(String weights) {
    BillingWeights w = BillingWeights.parse(weights);
    assertThat(w.isEmpty()).isTrue();
    assertThat(w.billing(ONE_CPU_8GB, false)).isEqualTo(1.0);
  }
}
