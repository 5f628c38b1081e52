package org.corral.cli.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** QOS Flags= as the reference's sacctmgr took them (modify qos tmp set flags...; show qos format=flags). */
class QosFlagsTest {

  @ParameterizedTest(name = "{0} flags{1}{2} -> {3}")
  @CsvSource(delimiter = '|', nullValues = "none", value = {
      "''                         | =  | noreserve,denyonlimit | DenyOnLimit,NoReserve",
      "DenyOnLimit,NoReserve      | += | OverPartQOS           | DenyOnLimit,NoReserve,OverPartQOS",
      "DenyOnLimit,NoReserve,OverPartQOS | -= | noreserve      | DenyOnLimit,OverPartQOS",
      "DenyOnLimit                | =  | -1                    | ''",
      "DenyOnLimit                | =  | bogus,noreserve       | NoReserve",
      "DenyOnLimit                | =  | noreserveX            | NoReserve",
      "''                         | =  | NoReserve,NoReserve   | NoReserve",
      "''                         | =  | UsageFactorSafe,NoDecay,RequiresReservation,PartitionTimeLimit,OverPartQOS,PartitionMinNodes,PartitionMaxNodes,NoReserve,EnforceUsageThreshold,DenyOnLimit | DenyOnLimit,EnforceUsageThreshold,NoReserve,PartitionMaxNodes,PartitionMinNodes,OverPartQOS,PartitionTimeLimit,RequiresReservation,NoDecay,UsageFactorSafe",
  })
  void flagsAsTheReferenceSetThem(String before, String op, String value, String after) throws Exception {
    List<String> current = before.isEmpty() ? List.of() : List.of(before.split(","));
    assertThat(String.join(",", Limits.qosFlags(current, new Args.Opt("flags", op, value)))).isEqualTo(after);
  }

  @ParameterizedTest
  @CsvSource({"x", "deny", "Partition"})
  void noFlagAtAllIsRefusedOnStandardOutput(String value) {
    assertThatThrownBy(() -> Limits.qosFlags(List.of(), new Args.Opt("flags", "=", value)))
        .isInstanceOfSatisfying(Limits.BadValue.class, e -> {
          assertThat(e.onOut).isTrue();
          assertThat(" " + e.getMessage() + "\n").isEqualTo(" Unknown QOS flag used in:\n  '" + value + "'\n"
              + " Valid QOS flags are\n  'DenyOnLimit,EnforceUsageThreshold,NoReserve,PartitionMaxNodes,"
              + "PartitionMinNodes,OverPartQOS,PartitionTimeLimit,RequiresReservation,NoDecay,UsageFactorSafe'\n");
        });
  }
}
