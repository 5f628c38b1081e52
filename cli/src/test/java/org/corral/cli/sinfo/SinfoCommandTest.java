package org.corral.cli.sinfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoReply;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class SinfoCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private static final UserDirectory USERS = UserDirectory.none();

  private static NodeInfo.Builder node(String name, int alloc) {
    return NodeInfo.newBuilder().setName(name).setCpus(4).setAllocCpus(alloc)
        .setBaseState(NodeBaseState.NODE_IDLE).setCpuLoad(50).setFreeMemMb(100);
  }

  private String run(String... args) {
    List<NodeInfo> nodes = List.of(node("a1", 2).build(), node("a2", 1).setCpuLoad(125).build(),
        node("a3", 0).setNotResponding(true).build(), node("longername12", 0).build());
    PartitionInfo part = PartitionInfo.newBuilder().setName("batchq").setIsDefault(true)
        .setState("UP").setMaxTimeMin(90).setMaxNodes(-1)
        .addAllNodeNames(List.of("a1", "a2", "a3", "longername12")).build();
    RpcChannel ch = r -> switch (r.getBodyCase()) {
      case NODE_INFO -> Response.newBuilder().setNodeInfo(NodeInfoReply.newBuilder()
          .addAllNodes(nodes)).build();
      default -> Response.newBuilder().setPartitionInfo(PartitionInfoReply.newBuilder()
          .addPartitions(part)).build();
    };
    Cli cli = new Cli("sinfo", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), Map.of(),
        Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), () -> ch);
    new SinfoCommand(USERS).run(List.of(args), cli);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void nodesThatPrintAlikeShareALineMeasuredValuesBecomeRangesAndFlagsSortFirst() {
    assertThat(run("-o", "%P %D %t %N %O %C")).isEqualTo("""
        PARTITION NODES STATE NODELIST CPU_LOAD CPUS(A/I/O/T)
        batchq* 1 idle* a3 0.50 0/0/4/4
        batchq* 2 mix a[1-2] 0.50-1.25 3/5/0/8
        batchq* 1 idle longername12 0.50 0/4/0/4
        """);
  }

  @Test
  void nodeColumnWidensForLongNames() {
    assertThat(run("-N", "-h").lines().findFirst().orElseThrow())
        .isEqualTo("a1                1   batchq* mix   ");
  }

  @Test
  void iterateKeepsTheDefaultFormatAndAddsTheDateLine() throws Exception {
    var opts = SinfoOptions.parse(List.of("-i", "5"), Map.of());
    assertThat(opts.iterate()).isEqualTo(5);
    assertThat(opts.dateLine()).isFalse(); // -l's long format is not asked for
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SinfoOptions.parse(List.of("-i", "0"), Map.of()))
        .hasMessage("Error: invalid entry for --iterate=0");
  }
}
