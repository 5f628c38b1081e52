package org.corral.slurmd.usage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what /proc tells about processes: memory (VmRSS, VmSize), major page faults, CPU time
 * (its own and that of the children it waited for) and bytes read and written.
 */
public final class ProcReader {
  private static final long PAGE_KB = 4;
  private static final long MILLIS_PER_TICK = 10;

  /**
   * How long a frequency reading is reused. Reading /proc/cpuinfo asks every CPU for its
   * frequency (an interrupt to each, costly under a hypervisor), and jobs ending in bursts would
   * do that per job for an average that moves far more slowly.
   */
  private static final long FREQUENCY_REUSE_NANOS = 1_000_000_000L;

  private final Path proc;
  private long frequencyKhz;
  private long frequencyReadAt;
  private boolean frequencyRead;

  public ProcReader(Path proc) {
    this.proc = proc;
  }

  public static ProcReader system() {
    return new ProcReader(Path.of("/proc"));
  }

  /** The sum over the given processes (one task): those gone meanwhile count nothing. */
  public TaskSample sample(int taskId, Collection<Long> pids) {
    long rss = 0;
    long vm = 0;
    long pages = 0;
    long cpu = 0;
    long read = 0;
    long written = 0;
    for (long pid : pids) {
      Optional<String[]> stat = stat(pid);
      if (stat.isEmpty()) {
        continue;
      }
      String[] f = stat.get();
      pages += number(f, 12);
      cpu += (number(f, 14) + number(f, 15) + number(f, 16) + number(f, 17)) * MILLIS_PER_TICK;
      vm += number(f, 23) / 1024;
      rss += number(f, 24) * PAGE_KB;
      String io = read(proc.resolve(Long.toString(pid)).resolve("io")).orElse("");
      read += keyed(io, "rchar");
      written += keyed(io, "wchar");
    }
    return new TaskSample(taskId, rss, vm, pages, cpu, read, written);
  }

  /** The processes of a session (what a job is when no cgroup holds it). */
  public Set<Long> sessionMembers(long sessionId) {
    Set<Long> members = new LinkedHashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        long pid = Long.parseLong(name);
        stat(pid).filter(f -> number(f, 6) == sessionId).ifPresent(f -> members.add(pid));
      }
    } catch (IOException e) {
      // no /proc: no members
    }
    return members;
  }

  /** The average current frequency of the host's CPUs in kHz, 0 when unknown. */
  public synchronized long cpuFrequencyKhz() {
    long now = System.nanoTime();
    if (!frequencyRead || now - frequencyReadAt >= FREQUENCY_REUSE_NANOS) {
      frequencyKhz = readCpuFrequencyKhz();
      frequencyReadAt = now;
      frequencyRead = true;
    }
    return frequencyKhz;
  }

  private long readCpuFrequencyKhz() {
    String info = read(proc.resolve("cpuinfo")).orElse("");
    double sum = 0;
    int n = 0;
    for (String line : info.split("\n")) {
      if (line.startsWith("cpu MHz")) {
        try {
          sum += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
          n++;
        } catch (NumberFormatException e) {
          // skip
        }
      }
    }
    return n == 0 ? 0 : Math.round(sum / n * 1000);
  }

  /**
   * /proc/PID/stat split so that index i holds field i (1-based, as proc(5) numbers them); the
   * command name, which may hold spaces, is skipped.
   */
  private Optional<String[]> stat(long pid) {
    return read(proc.resolve(Long.toString(pid)).resolve("stat")).flatMap(text -> {
      int close = text.lastIndexOf(')');
      if (close < 0) {
        return Optional.empty();
      }
      String[] rest = text.substring(close + 1).trim().split(" ");
      String[] fields = new String[rest.length + 3];
      System.arraycopy(rest, 0, fields, 3, rest.length);
      return Optional.of(fields);
    });
  }

  private static long number(String[] fields, int index) {
    if (index >= fields.length || fields[index] == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(fields[index]));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long keyed(String text, String key) {
    for (String line : text.split("\n")) {
      if (line.startsWith(key + ":")) {
        try {
          return Long.parseLong(line.substring(key.length() + 1).trim());
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  private static Optional<String> read(Path file) {
    try (var in = Files.newInputStream(file)) {
      return Optional.of(new String(in.readNBytes(256 * 1024), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
