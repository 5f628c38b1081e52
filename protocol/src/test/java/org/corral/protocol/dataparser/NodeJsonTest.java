package org.corral.protocol.dataparser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;

/** Partitions as v0.0.42_partition_info: memory defaults and limits, configured TRES, allow-lists. */
class NodeJsonTest {
  private static final Map<String, NodeInfo> NODES = Map.of(
      "n1", NodeInfo.newBuilder().setName("n1").setRealMemoryMb(262144).build(),
      "n2", NodeInfo.newBuilder().setName("n2").setRealMemoryMb(262144).build());

  private static PartitionInfo.Builder part() {
    return PartitionInfo.newBuilder().setName("p").addNodeNames("n1").addNodeNames("n2").setTotalCpus(64)
        .setTotalNodes(2).setAllowAccounts("ALL").setAllowGroups("ALL").setAllowQos("normal");
  }

  private static String number(JsonObject o, String field) {
    JsonObject n = (JsonObject) o.get(field);
    return n.get("set") + ":" + n.get("number");
  }

  @Test
  void perCpuMemoryCarriesSlurmsMemPerCpuBit() {
    JsonObject o = NodeJson.partition(part().setDefMemPerCpuMb(512).setMaxMemPerNodeMb(0).build(), NODES::get);
    JsonObject defaults = (JsonObject) o.get("defaults");
    assertThat(defaults.get("memory_per_cpu")).isEqualTo(-9223372036854775296L); // as Slurm 25.05 writes 512/CPU
    assertThat(number(defaults, "partition_memory_per_cpu")).isEqualTo("true:512");
    assertThat(number(defaults, "partition_memory_per_node")).isEqualTo("false:0");
    JsonObject max = (JsonObject) o.get("maximums");
    assertThat(max.get("memory_per_cpu")).isEqualTo(0L);
    assertThat(number(max, "partition_memory_per_cpu")).isEqualTo("false:0");
    assertThat(number(max, "partition_memory_per_node")).isEqualTo("true:0"); // 0 = unlimited
  }

  @Test
  void configuredTresCountsTheNodesMemoryAndAllowListsOmitAll() {
    JsonObject o = NodeJson.partition(part().build(), NODES::get);
    assertThat(((JsonObject) o.get("tres")).get("configured")).isEqualTo("cpu=64,mem=512G,node=2,billing=64");
    assertThat(((JsonObject) o.get("accounts")).get("allowed")).isEqualTo("");
    assertThat(((JsonObject) o.get("groups")).get("allowed")).isEqualTo("");
    assertThat(((JsonObject) o.get("qos")).get("allowed")).isEqualTo("normal");
  }
}
