package org.corral.common;

import java.util.ArrayList;
import java.util.List;

/**
 * A job array's task ids (sbatch --array): sorted, disjoint ranges, written as Slurm writes them
 * ("0-9", "1,3,5-7", "0,4,8,12"), plus the throttle ("%2": at most that many running at once).
 * A million tasks are one range: the array stays one record until its tasks start.
 */
public record ArrayTasks(List<int[]> ranges, int throttle) {
  public ArrayTasks {
    ranges = List.copyOf(ranges);
  }

  public static final ArrayTasks NONE = new ArrayTasks(List.of(), 0);

  /**
   * Parses --array's value: comma-separated {@code N}, {@code N-M} or {@code N-M:STEP}, then an
   * optional {@code %MAX}; every id below {@code maxArraySize}.
   *
   * @throws IllegalArgumentException when it is not one (Slurm: "Invalid job array specification")
   */
  public static ArrayTasks parse(String spec, int maxArraySize) {
    String s = spec.trim();
    int throttle = 0;
    int pct = s.indexOf('%');
    if (pct >= 0) {
      throttle = number(s.substring(pct + 1));
      s = s.substring(0, pct);
    }
    List<int[]> singles = new ArrayList<>();
    for (String part : s.split(",", -1)) {
      int step = 1;
      int colon = part.indexOf(':');
      if (colon >= 0) {
        step = number(part.substring(colon + 1));
        part = part.substring(0, colon);
        if (step < 1) {
          throw new IllegalArgumentException(spec);
        }
      }
      int dash = part.indexOf('-');
      int lo = number(dash < 0 ? part : part.substring(0, dash));
      int hi = dash < 0 ? lo : number(part.substring(dash + 1));
      if (hi < lo || hi >= maxArraySize) {
        throw new IllegalArgumentException(spec);
      }
      if (step == 1) {
        singles.add(new int[] {lo, hi});
      } else {
        for (long v = lo; v <= hi; v += step) {
          singles.add(new int[] {(int) v, (int) v});
        }
      }
    }
    return new ArrayTasks(merge(singles), throttle);
  }

  private static int number(String t) {
    if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException(t);
    }
    return Integer.parseInt(t);
  }

  private static List<int[]> merge(List<int[]> in) {
    List<int[]> sorted = new ArrayList<>(in);
    sorted.sort((a, b) -> Integer.compare(a[0], b[0]));
    List<int[]> out = new ArrayList<>();
    for (int[] r : sorted) {
      int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && r[0] <= last[1] + 1) {
        last[1] = Math.max(last[1], r[1]);
      } else {
        out.add(new int[] {r[0], r[1]});
      }
    }
    return out;
  }

  /** Parses what {@link #toString()} wrote ("1,3,5-7%2"); "" is no tasks. */
  public static ArrayTasks fromString(String text) {
    if (text.isEmpty()) {
      return NONE;
    }
    return parse(text, Integer.MAX_VALUE);
  }

  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  public long count() {
    long n = 0;
    for (int[] r : ranges) {
      n += (long) r[1] - r[0] + 1;
    }
    return n;
  }

  public int first() {
    return ranges.get(0)[0];
  }

  public int last() {
    return ranges.get(ranges.size() - 1)[1];
  }

  /** The spacing of the ids when they are evenly spaced single ids, else 1 (SLURM_ARRAY_TASK_STEP). */
  public int step() {
    if (ranges.size() < 2 || ranges.stream().anyMatch(r -> r[0] != r[1])) {
      return 1;
    }
    int step = ranges.get(1)[0] - ranges.get(0)[0];
    for (int i = 2; i < ranges.size(); i++) {
      if (ranges.get(i)[0] - ranges.get(i - 1)[0] != step) {
        return 1;
      }
    }
    return step;
  }

  public boolean contains(int task) {
    for (int[] r : ranges) {
      if (task >= r[0] && task <= r[1]) {
        return true;
      }
    }
    return false;
  }

  /** The same set without {@code task}. */
  public ArrayTasks without(int task) {
    List<int[]> out = new ArrayList<>();
    for (int[] r : ranges) {
      if (task < r[0] || task > r[1]) {
        out.add(r);
        continue;
      }
      if (r[0] < task) {
        out.add(new int[] {r[0], task - 1});
      }
      if (task < r[1]) {
        out.add(new int[] {task + 1, r[1]});
      }
    }
    return new ArrayTasks(out, throttle);
  }

  /** Every task id, in order (for squeue -r). */
  public List<Integer> ids() {
    List<Integer> out = new ArrayList<>();
    for (int[] r : ranges) {
      for (int v = r[0]; v <= r[1]; v++) {
        out.add(v);
      }
    }
    return out;
  }

  /** The ids as Slurm writes them, without the throttle: "1,3,5-7". */
  public String ids(boolean withThrottle) {
    StringBuilder sb = new StringBuilder();
    for (int[] r : ranges) {
      if (!sb.isEmpty()) {
        sb.append(',');
      }
      sb.append(r[0]);
      if (r[1] != r[0]) {
        sb.append('-').append(r[1]);
      }
    }
    if (withThrottle && throttle > 0) {
      sb.append('%').append(throttle);
    }
    return sb.toString();
  }

  /** The ids and the throttle: "2-9%2". */
  @Override
  public String toString() {
    return ids(true);
  }
}
