package org.corral.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.PmiFence;
import org.corral.protocol.msg.PmiPair;

/**
 * A PMI fence's key-value pairs as step I/O frames (docs/adr/0011): cut into frames that stay
 * under {@link StepIo#CHUNK_BYTES}, the last one marked, so a large key-value space never makes
 * a frame the other side refuses.
 */
public final class PmiFrames {
  private PmiFrames() {}

  /** The frames of one node's (or srun's) part of fence {@code round}; at least one. */
  public static List<IoFrame> fence(int round, Map<String, String> pairs) {
    List<IoFrame> frames = new ArrayList<>();
    PmiFence.Builder chunk = PmiFence.newBuilder().setRound(round);
    int bytes = 0;
    for (Map.Entry<String, String> e : pairs.entrySet()) {
      PmiPair pair = PmiPair.newBuilder().setKey(e.getKey()).setValue(e.getValue()).build();
      int size = pair.getSerializedSize() + 8;
      if (bytes > 0 && bytes + size > StepIo.CHUNK_BYTES - 1024) {
        frames.add(IoFrame.newBuilder().setPmiFence(chunk).build());
        chunk = PmiFence.newBuilder().setRound(round);
        bytes = 0;
      }
      chunk.addPairs(pair);
      bytes += size;
    }
    frames.add(IoFrame.newBuilder().setPmiFence(chunk.setLast(true)).build());
    return frames;
  }
}
