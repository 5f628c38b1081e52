package org.corral.slurmd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the node daemon reports about its host: boot time, OS, load and free memory. */
final class HostFacts {
  private HostFacts() {}

  static long bootTime() {
    for (String line : lines("/proc/stat")) {
      if (line.startsWith("btime ")) {
        return Long.parseLong(line.substring(6).trim());
      }
    }
    return 0;
  }

  static String os() {
    return (read("/proc/sys/kernel/ostype") + " " + read("/proc/sys/kernel/osrelease") + " "
        + read("/proc/sys/kernel/version")).trim();
  }

  /** The machine architecture as uname -m names it (Java says amd64 where the kernel says x86_64). */
  static String arch() {
    String a = read("/proc/sys/kernel/arch");
    if (!a.isEmpty()) {
      return a;
    }
    String java = System.getProperty("os.arch", "");
    return java.equals("amd64") ? "x86_64" : java;
  }

  /** One-minute load average times 100, as Slurm's CPULoad keeps it. */
  static int cpuLoad() {
    String s = read("/proc/loadavg");
    try {
      return (int) Math.round(Double.parseDouble(s.split(" ")[0]) * 100);
    } catch (RuntimeException e) {
      return 0;
    }
  }

  static long freeMemMb() {
    for (String line : lines("/proc/meminfo")) {
      if (line.startsWith("MemFree:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return 0;
  }

  static int onlineCpus() {
    return Runtime.getRuntime().availableProcessors();
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file)).trim();
    } catch (IOException e) {
      return "";
    }
  }

  private static List<String> lines(String file) {
    try {
      return Files.readAllLines(Path.of(file));
    } catch (IOException e) {
      return List.of();
    }
  }
}
