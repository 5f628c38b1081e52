package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.PmiFrames;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.PmiFence;
import org.corral.protocol.msg.PmiPair;
import org.junit.jupiter.api.Test;

class PmiFenceRelayTest {
  private final List<Map.Entry<Integer, IoFrame>> sent = new ArrayList<>();
  private final PmiFenceRelay relay = new PmiFenceRelay(2, (node, frame) -> sent.add(Map.entry(node, frame)));

  private static PmiFence fence(boolean last, String... keysAndValues) {
    PmiFence.Builder b = PmiFence.newBuilder().setLast(last);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      b.addPairs(PmiPair.newBuilder().setKey(keysAndValues[i]).setValue(keysAndValues[i + 1]));
    }
    return b.build();
  }

  @Test
  void everyNodeGetsTheUnionOnceAllNodesSentTheirs() {
    assertThat(relay.fromNode(0, fence(false, "a", "1"))).isTrue();
    assertThat(relay.fromNode(0, fence(true, "b", "2"))).isTrue();
    assertThat(sent).isEmpty();
    assertThat(relay.fromNode(1, fence(true, "c", "3"))).isTrue();
    assertThat(sent).extracting(Map.Entry::getKey).containsExactly(0, 1);
    for (var s : sent) {
      assertThat(s.getValue().getPmiFence().getLast()).isTrue();
      assertThat(s.getValue().getPmiFence().getPairsList()).extracting(PmiPair::getKey).containsExactly("a", "b", "c");
    }
    // the next fence starts empty
    sent.clear();
    relay.fromNode(1, fence(true));
    relay.fromNode(0, fence(true, "d", "4"));
    assertThat(sent).hasSize(2);
    assertThat(sent.get(0).getValue().getPmiFence().getPairsList()).extracting(PmiPair::getKey).containsExactly("d");
  }

  @Test
  void aNodeSpeakingTwiceInOneFenceBreaksTheProtocol() {
    assertThat(relay.fromNode(0, fence(true))).isTrue();
    assertThat(relay.fromNode(0, fence(true))).isFalse();
  }

  @Test
  void aLargeSpaceTravelsInFramesUnderTheStreamsLimit() {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (int i = 0; i < 2000; i++) {
      pairs.put("P" + i + "-businesscard", "x".repeat(200));
    }
    List<IoFrame> frames = PmiFrames.fence(3, pairs);
    assertThat(frames.size()).isGreaterThan(1);
    assertThat(frames).allSatisfy(f -> assertThat(f.getSerializedSize()).isLessThan(org.corral.protocol.StepIo.CHUNK_BYTES));
    assertThat(frames).filteredOn(f -> f.getPmiFence().getLast()).hasSize(1);
    assertThat(frames.stream().mapToInt(f -> f.getPmiFence().getPairsCount()).sum()).isEqualTo(2000);
  }
}
