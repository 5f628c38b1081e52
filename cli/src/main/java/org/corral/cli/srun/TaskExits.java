package org.corral.cli.srun;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The tasks' exits as srun reports them. Tasks of one node that end the same way within a
 * moment of each other are reported on one line, as Slurm's step daemon reports them
 * together: "srun: error: n1: tasks 0-1: Exited with exit code 2", "... task 2: Killed". A
 * zero exit is not reported. srun's exit code is the highest task's: its exit code, or 128 +
 * the signal that killed it.
 */
final class TaskExits {

  /** How long a group of equal exits on one node stays open for more tasks. */
  static final long GROUP_WINDOW_NANOS = 100_000_000L;

  static final int SIGKILL = 9;
  static final int SIGTERM = 15;

  private record GroupKey(String node, int status) {}

  private static final class Group {
    final long opened;
    final Set<Integer> tasks = new TreeSet<>();

    Group(long opened) {
      this.opened = opened;
    }
  }

  private final int numTasks;
  private final LongSupplier nanoClock;
  private final Map<Integer, Integer> statusByTask = new LinkedHashMap<>();
  private final Map<GroupKey, Group> open = new LinkedHashMap<>();
  private boolean killedBySlurmSignal;

  TaskExits(int numTasks, LongSupplier nanoClock) {
    this.numTasks = numTasks;
    this.nanoClock = nanoClock;
  }

  /** Records a task's end; a repeated report of the same task is ignored. */
  synchronized void exited(String node, int task, int status) {
    if (task < 0 || task >= numTasks || statusByTask.containsKey(task)) {
      return;
    }
    statusByTask.put(task, status);
    int signal = status & 0x7f;
    if (signal == SIGKILL || signal == SIGTERM) {
      killedBySlurmSignal = true;
    }
    if (status != 0) {
      open.computeIfAbsent(new GroupKey(node, status), k -> new Group(nanoClock.getAsLong())).tasks.add(task);
    }
  }

  /**
   * Records the end of a task that never ran or whose node was lost: it counts for the exit
   * code but gets no line of its own (srun has already said why).
   */
  synchronized void failed(int task, int status) {
    if (task >= 0 && task < numTasks) {
      statusByTask.putIfAbsent(task, status);
    }
  }

  /**
   * The report lines of groups that are complete: older than the window, or all of them when
   * {@code all}; each is returned once, in the order the groups began.
   */
  synchronized List<String> takeLines(boolean all) {
    List<String> lines = new ArrayList<>();
    long now = nanoClock.getAsLong();
    for (Iterator<Map.Entry<GroupKey, Group>> it = open.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<GroupKey, Group> e = it.next();
      if (all || now - e.getValue().opened >= GROUP_WINDOW_NANOS) {
        lines.add("srun: error: " + e.getKey().node() + ": " + TaskRanges.describe(e.getValue().tasks)
            + ": " + describe(e.getKey().status()));
        it.remove();
      }
    }
    return lines;
  }

  synchronized boolean allExited() {
    return statusByTask.size() >= numTasks;
  }

  synchronized boolean hasExited(int task) {
    return statusByTask.containsKey(task);
  }

  synchronized int exitedCount() {
    return statusByTask.size();
  }

  /** Whether a task was killed by SIGKILL or SIGTERM (srun then says "Force Terminated"). */
  synchronized boolean killedBySlurmSignal() {
    return killedBySlurmSignal;
  }

  /** srun's exit code: the highest of the tasks' codes, 128 + signal for a killed task. */
  synchronized int exitCode() {
    int rc = 0;
    for (int status : statusByTask.values()) {
      rc = Math.max(rc, exitCode(status));
    }
    return rc;
  }

  /** The ids of tasks that have ended and of those still running, for the status report. */
  synchronized List<Integer> exitedTasks() {
    return new ArrayList<>(new TreeSet<>(statusByTask.keySet()));
  }

  synchronized List<Integer> runningTasks() {
    List<Integer> running = new ArrayList<>();
    for (int t = 0; t < numTasks; t++) {
      if (!statusByTask.containsKey(t)) {
        running.add(t);
      }
    }
    return running;
  }

  static int exitCode(int status) {
    int signal = status & 0x7f;
    return signal != 0 ? 128 + signal : (status >> 8) & 0xff;
  }

  /** "Exited with exit code 3", "Killed", "Segmentation fault (core dumped)". */
  static String describe(int status) {
    int signal = status & 0x7f;
    if (signal == 0) {
      return "Exited with exit code " + ((status >> 8) & 0xff);
    }
    return SignalText.of(signal) + ((status & 0x80) != 0 ? " (core dumped)" : "");
  }
}
