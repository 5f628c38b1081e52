package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Whether a process group, or one given process, is still alive, read from /proc (the JDK cannot ask). */
public final class ProcessGroups {
  private ProcessGroups() {}

  public static boolean alive(long processGroup) {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .anyMatch(p -> processGroupOf(p) == processGroup);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether process {@code pid} runs and is the one that started {@code startTicks} clock ticks
   * after boot (field 22 of /proc/PID/stat), not a later process that reused its pid.
   */
  public static boolean running(long pid, long startTicks) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return !rest[0].equals("Z") && Long.parseLong(rest[19]) == startTicks;
    } catch (IOException | RuntimeException e) {
      return false; // gone, or not readable
    }
  }

  /** Field 5 of /proc/PID/stat, after the command name in parentheses (which may hold spaces). */
  private static long processGroupOf(Path proc) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return rest[0].equals("Z") ? -1 : Long.parseLong(rest[2]); // a zombie is dead already
    } catch (IOException | RuntimeException e) {
      return -1; // gone meanwhile, or not readable
    }
  }
}
