package org.corral.cli.scontrol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The job processes a node daemon of this host started, read from its spool (SlurmdSpoolDir):
 * {@code jobNNNNN/record} for a batch script, {@code steps/jobJ.S/taskT/record} for a step's task
 * (the supervisor's "pid PID" line), and from /proc every process below them. What the caller
 * may not read (another user's job, for a user) is left out.
 */
final class NodeProcesses {
  /** One process: its job, step ("batch" or a number), and task ids ("-" below a task). */
  record Proc(long pid, int jobId, String step, String localId, String globalId) {}

  private final Path proc;

  NodeProcesses(Path proc) {
    this.proc = proc;
  }

  /** The processes of every job in {@code spool}, by job id, batch first, each task's tree in order. */
  List<Proc> list(Path spool) {
    Map<Integer, List<Proc>> byJob = new java.util.TreeMap<>();
    Map<Long, List<Long>> children = children();
    for (Path dir : entries(spool)) {
      String name = dir.getFileName().toString();
      if (name.matches("job\\d+")) {
        int job = Integer.parseInt(name.substring(3));
        recordedPid(dir.resolve("record")).ifPresent(pid -> tree(pid, job, "batch", "0", "0", children,
            byJob.computeIfAbsent(job, k -> new ArrayList<>())));
      }
    }
    for (Path step : entries(spool.resolve("steps"))) {
      String name = step.getFileName().toString();
      if (!name.matches("job\\d+\\.\\d+")) {
        continue;
      }
      int job = Integer.parseInt(name.substring(3, name.indexOf('.')));
      String stepId = name.substring(name.indexOf('.') + 1);
      List<Path> tasks = entries(step).stream().filter(t -> t.getFileName().toString().matches("task\\d+"))
          .sorted(java.util.Comparator.comparingInt(t -> Integer.parseInt(t.getFileName().toString().substring(4))))
          .toList();
      for (int local = 0; local < tasks.size(); local++) {
        String global = tasks.get(local).getFileName().toString().substring(4);
        String localId = Integer.toString(local);
        recordedPid(tasks.get(local).resolve("record")).ifPresent(pid -> tree(pid, job, stepId, localId, global,
            children, byJob.computeIfAbsent(job, k -> new ArrayList<>())));
      }
    }
    List<Proc> out = new ArrayList<>();
    byJob.values().forEach(out::addAll);
    return out;
  }

  /** The process and those below it (ids "-"), if it is still alive. */
  private void tree(long pid, int job, String step, String local, String global, Map<Long, List<Long>> children,
      List<Proc> into) {
    if (!Files.isDirectory(proc.resolve(Long.toString(pid)))) {
      return;
    }
    into.add(new Proc(pid, job, step, local, global));
    List<Long> todo = new ArrayList<>(children.getOrDefault(pid, List.of()));
    for (int i = 0; i < todo.size() && i < 100_000; i++) {
      long child = todo.get(i);
      into.add(new Proc(child, job, step, "-", "-"));
      todo.addAll(children.getOrDefault(child, List.of()));
    }
  }

  /** Each live process's children, from /proc/PID/stat. */
  private Map<Long, List<Long>> children() {
    Map<Long, List<Long>> out = new HashMap<>();
    for (Path p : entries(proc)) {
      String name = p.getFileName().toString();
      if (!name.matches("\\d+")) {
        continue;
      }
      long parent = parent(p);
      if (parent > 0) {
        out.computeIfAbsent(parent, k -> new ArrayList<>()).add(Long.parseLong(name));
      }
    }
    out.values().forEach(l -> l.sort(null));
    return out;
  }

  /** The parent of a process (its /proc directory), 0 when unreadable or gone. */
  long parent(Path procDir) {
    try {
      String stat = Files.readString(procDir.resolve("stat"));
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(after[1]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** The last "pid N" line of a supervisor's record, if readable. */
  static OptionalLong recordedPid(Path record) {
    try {
      OptionalLong pid = OptionalLong.empty();
      for (String line : Files.readAllLines(record)) {
        if (line.startsWith("pid ")) {
          pid = OptionalLong.of(Long.parseLong(line.substring(4).trim()));
        }
      }
      return pid;
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  private static List<Path> entries(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
