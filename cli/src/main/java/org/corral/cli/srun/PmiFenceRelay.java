package org.corral.cli.srun;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.corral.protocol.PmiFrames;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.PmiFence;

/**
 * srun's part of a --mpi=pmi2 fence, the root of the exchange as in Slurm's mpi/pmi2 (docs/adr/0011):
 * each node sends what its tasks put once all of them entered the fence; when every node has,
 * srun sends the union to every node, which then lets its tasks out of the fence.
 */
final class PmiFenceRelay {
  /** Bounds what a step's tasks may make srun hold in one fence. */
  static final long MAX_BYTES = 256L * 1024 * 1024;

  private final int nodes;
  private final BiConsumer<Integer, IoFrame> send;
  private final Map<String, String> pairs = new LinkedHashMap<>();
  private final Set<Integer> done = new HashSet<>();
  private long bytes;
  private int round;

  /** @param send sends a frame to the node of that index */
  PmiFenceRelay(int nodes, BiConsumer<Integer, IoFrame> send) {
    this.nodes = nodes;
    this.send = send;
  }

  /** A fence frame from a node; false when the node broke the protocol (too much, or twice). */
  synchronized boolean fromNode(int nodeIndex, PmiFence fence) {
    if (done.contains(nodeIndex)) {
      return false;
    }
    for (var p : fence.getPairsList()) {
      bytes += p.getKey().length() + p.getValue().length();
      pairs.put(p.getKey(), p.getValue());
    }
    if (bytes > MAX_BYTES) {
      return false;
    }
    if (fence.getLast()) {
      done.add(nodeIndex);
    }
    if (done.size() == nodes) {
      var frames = PmiFrames.fence(round, pairs);
      for (int i = 0; i < nodes; i++) {
        for (IoFrame f : frames) {
          send.accept(i, f);
        }
      }
      // Every node keeps what it received: the next fence carries only the new pairs.
      pairs.clear();
      done.clear();
      bytes = 0;
      round++;
    }
    return true;
  }
}
