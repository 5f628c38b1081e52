package org.corral.slurmd;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What {@code slurmd -C} prints: the host's hardware as a slurm.conf node line, then its uptime,
 * as Slurm's does ({@code NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2
 * ThreadsPerCore=1 RealMemory=24105} / {@code UpTime=0-00:26:10}). Sockets, cores and threads
 * come from sysfs's CPU topology, memory from /proc/meminfo's MemTotal in MiB.
 */
record HardwareLine(int cpus, int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb,
    long uptimeSeconds) {

  /** The host, read from {@code root}: "/" for the real one, a laid-out tree in tests. */
  static HardwareLine read(Path root) throws IOException {
    Set<String> packages = new HashSet<>();
    Map<String, Set<String>> coresOf = new HashMap<>();
    int cpus = 0;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root.resolve("sys/devices/system/cpu"), "cpu[0-9]*")) {
      for (Path cpu : dirs) {
        Path topo = cpu.resolve("topology");
        if (!Files.isDirectory(topo) || !online(cpu)) {
          continue;
        }
        cpus++;
        String pkg = Files.readString(topo.resolve("physical_package_id")).strip();
        packages.add(pkg);
        coresOf.computeIfAbsent(pkg, p -> new HashSet<>()).add(Files.readString(topo.resolve("core_id")).strip());
      }
    }
    int sockets = Math.max(1, packages.size());
    int cores = Math.max(1, coresOf.values().stream().mapToInt(Set::size).max().orElse(1));
    int threads = Math.max(1, cpus / (sockets * cores));
    return new HardwareLine(cpus, sockets, cores, threads, memTotalMb(root), uptime(root));
  }

  private static boolean online(Path cpu) throws IOException {
    Path flag = cpu.resolve("online"); // cpu0 usually has none: it cannot go offline
    return !Files.exists(flag) || Files.readString(flag).strip().equals("1");
  }

  private static long memTotalMb(Path root) throws IOException {
    for (String line : Files.readAllLines(root.resolve("proc/meminfo"))) {
      if (line.startsWith("MemTotal:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    return 1;
  }

  private static long uptime(Path root) throws IOException {
    String s = Files.readString(root.resolve("proc/uptime")).strip();
    return (long) Double.parseDouble(s.substring(0, s.indexOf(' ') < 0 ? s.length() : s.indexOf(' ')));
  }

  /** The two lines, with the node's name and its detected GRES ("" for none: no Gres=). */
  String render(String nodeName, String gres) {
    long d = uptimeSeconds / 86400;
    long h = uptimeSeconds / 3600 % 24;
    long m = uptimeSeconds / 60 % 60;
    long s = uptimeSeconds % 60;
    return "NodeName=" + nodeName + " CPUs=" + cpus + " Boards=1 SocketsPerBoard=" + sockets
        + " CoresPerSocket=" + coresPerSocket + " ThreadsPerCore=" + threadsPerCore
        + " RealMemory=" + realMemoryMb + (gres.isEmpty() ? "" : " Gres=" + gres) + "\n"
        + "UpTime=" + d + "-" + String.format("%02d:%02d:%02d", h, m, s) + "\n";
  }
}
