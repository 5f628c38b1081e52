package org.corral.ctld.steps;

import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepInfo;

/**
 * MpiParams=ports=LOW-HIGH: as Slurm 22.05 does once the range is set, every step gets ports of
 * its own on its nodes, named to its tasks in SLURM_STEP_RESV_PORTS ("12001-12003"): one more
 * than the most tasks it has on a node (recorded on the reference). A range is free when no
 * running step on any of the step's nodes holds a port of it; the first free one from the low
 * end is taken (Slurm goes round from the last one it gave).
 */
public record MpiPorts(int low, int high) {

  /** The range MpiParams names ("ports=12000-12999"), if it names one. */
  public static Optional<MpiPorts> of(String mpiParams) {
    if (mpiParams == null) {
      return Optional.empty();
    }
    for (String word : mpiParams.split(",")) {
      String w = word.strip();
      if (!w.regionMatches(true, 0, "ports=", 0, 6)) {
        continue;
      }
      String[] range = w.substring(6).split("-", -1);
      try {
        int low = Integer.parseInt(range[0].strip());
        int high = range.length == 2 ? Integer.parseInt(range[1].strip()) : -1;
        if (low > 0 && low <= high && high <= 65535) {
          return Optional.of(new MpiPorts(low, high));
        }
      } catch (NumberFormatException e) {
        // refused below
      }
      throw new IllegalArgumentException("MpiParams: invalid ports range \"" + w.substring(6)
          + "\" (ports=LOW-HIGH, 1-65535)");
    }
    return Optional.empty();
  }

  /**
   * "LOW-HIGH" for a step with these nodes and tasks per node.
   *
   * @param running the steps that may hold ports now (only running ones on a shared node count)
   */
  public String reserve(List<String> nodes, List<Integer> tasksOnNode, Collection<StepInfo> running)
      throws StepUnavailable {
    int count = tasksOnNode.stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
    int size = high - low + 1;
    if (count > size) {
      throw new StepUnavailable(SlurmError.PORTS_INVALID);
    }
    BitSet used = new BitSet(size);
    for (StepInfo s : running) {
      if (s.getState() != JobState.RUNNING || s.getResvPorts().isEmpty()
          || s.getNodeNamesList().stream().noneMatch(nodes::contains)) {
        continue;
      }
      String[] r = s.getResvPorts().split("-");
      int from = Math.max(Integer.parseInt(r[0]), low);
      int to = Math.min(r.length > 1 ? Integer.parseInt(r[1]) : from, high);
      if (from <= to) {
        used.set(from - low, to - low + 1);
      }
    }
    for (int start = 0; start + count <= size; start++) {
      int taken = used.nextSetBit(start);
      if (taken < 0 || taken >= start + count) {
        return (low + start) + "-" + (low + start + count - 1);
      }
      start = taken; // the loop's increment moves past it
    }
    throw new StepUnavailable(SlurmError.PORTS_BUSY);
  }
}
