package org.corral.slurmd.step;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * --cpu-bind for a step's tasks on this node. "cores": local task i gets its own
 * {@code cpusPerTask} CPUs, taken in order from the CPUs the job holds here (wrapping around when
 * the tasks outnumber them); "none" or "" (the default): no binding.
 */
final class CpuBinding {
  private CpuBinding() {}

  /**
   * The CPU list (taskset -c syntax) of each local task, or empty per task when not binding.
   * Throws IllegalArgumentException for a binding type this node does not implement.
   */
  static List<Optional<String>> perTask(String mode, List<Integer> jobCpus, int tasks, int cpusPerTask) {
    List<Optional<String>> lists = new ArrayList<>(tasks);
    switch (mode) {
      case "", "none" -> {
        for (int i = 0; i < tasks; i++) {
          lists.add(Optional.empty());
        }
      }
      case "cores" -> {
        if (jobCpus.isEmpty()) {
          throw new IllegalArgumentException("--cpu-bind=cores: no CPUs known for the job on this node");
        }
        int per = Math.max(1, cpusPerTask);
        for (int i = 0; i < tasks; i++) {
          TreeSet<Integer> mine = new TreeSet<>();
          for (int k = 0; k < per; k++) {
            mine.add(jobCpus.get((i * per + k) % jobCpus.size()));
          }
          lists.add(Optional.of(String.join(",", mine.stream().map(String::valueOf).toList())));
        }
      }
      default -> throw new IllegalArgumentException("--cpu-bind=" + mode + " is not supported (none, cores)");
    }
    return lists;
  }

  /** Parses a CPU list such as "0-3,8,10-11". */
  static List<Integer> parseList(String text) {
    List<Integer> cpus = new ArrayList<>();
    for (String part : text.strip().split(",")) {
      if (part.isEmpty()) {
        continue;
      }
      int dash = part.indexOf('-');
      int low = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
      int high = dash < 0 ? low : Integer.parseInt(part.substring(dash + 1));
      for (int c = low; c <= high; c++) {
        cpus.add(c);
      }
    }
    return cpus;
  }

  /**
   * The CPUs this daemon may run on (its Cpus_allowed_list), the pool a job's CPUs are taken from
   * until jobs get cpusets of their own.
   */
  static List<Integer> daemonCpus() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return parseList(line.substring("Cpus_allowed_list:".length()));
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through: every online CPU
    }
    List<Integer> all = new ArrayList<>();
    for (int c = 0; c < Runtime.getRuntime().availableProcessors(); c++) {
      all.add(c);
    }
    return all;
  }
}
