package org.corral.slurmd.pmi;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The key-value space of one step as this node sees it, and its fences (PMI-1 barrier_in,
 * PMI-2 kvs-fence). Pairs put here wait for the next fence; once every task of the step on this
 * node entered it, they go up ({@link Uplink#fence}), and the fence ends for all of them when the
 * union of every node's pairs comes back ({@link #fenceDone}). A step on one node needs nobody
 * else. Also the node attributes (PMI-2 info-putnodeattr), shared by the tasks here only.
 */
public final class PmiSpace {
  /** Slurm's limits (PMI-1 get_maxes on the reference): longer keys or values are refused. */
  public static final int KEY_MAX = 64;
  public static final int VALUE_MAX = 1024;
  /** What the tasks here may put between two fences, and into node attributes. */
  static final long MAX_BYTES = 64L * 1024 * 1024;

  /** Where a fence's pairs go when the step spans more than this node. */
  public interface Uplink {
    void fence(int round, Map<String, String> pairs);
  }

  private final int localTasks;
  private final boolean alone;
  private final Uplink uplink;
  private final Map<String, String> committed = new HashMap<>();
  private final Map<String, String> pending = new LinkedHashMap<>();
  private final Map<String, String> nodeAttributes = new HashMap<>();
  private long pendingBytes;
  private long attributeBytes;
  private int round;
  private int entered;
  private boolean closed;
  /** Pairs from srun for the fence under way, until the last frame. */
  private final Map<String, String> arriving = new HashMap<>();

  /**
   * @param localTasks the step's tasks on this node, each of which enters every fence
   * @param alone whether this node runs the whole step
   */
  public PmiSpace(int localTasks, boolean alone, Uplink uplink) {
    this.localTasks = localTasks;
    this.alone = alone;
    this.uplink = uplink;
  }

  /** Puts a pair for the next fence; false when the key or value is too long, or too much was put. */
  public synchronized boolean put(String key, String value) {
    if (key.isEmpty() || key.length() > KEY_MAX || value.length() > VALUE_MAX
        || pendingBytes + key.length() + value.length() > MAX_BYTES) {
      return false;
    }
    String old = pending.put(key, value);
    pendingBytes += key.length() + value.length() - (old == null ? 0 : key.length() + old.length());
    return true;
  }

  /** A pair of an earlier fence, or one put here since. */
  public synchronized Optional<String> get(String key) {
    String v = pending.get(key);
    return Optional.ofNullable(v != null ? v : committed.get(key));
  }

  /** Enters the fence and waits until it ends; false when the step ended first. */
  public boolean fence() throws InterruptedException {
    Map<String, String> up = null;
    int mine;
    synchronized (this) {
      mine = round;
      if (++entered == localTasks) {
        entered = 0;
        if (alone) {
          committed.putAll(pending);
          clearPending();
          round++;
          notifyAll();
          return true;
        }
        up = new LinkedHashMap<>(pending);
        clearPending();
      }
    }
    if (up != null) {
      uplink.fence(mine, up);
    }
    synchronized (this) {
      while (round == mine && !closed) {
        wait();
      }
      return round != mine;
    }
  }

  /** A frame of srun's answer to the fence under way; the last one ends it. */
  public synchronized void fenceDone(List<Map.Entry<String, String>> pairs, boolean last) {
    for (var p : pairs) {
      arriving.put(p.getKey(), p.getValue());
    }
    if (last) {
      committed.putAll(arriving);
      arriving.clear();
      round++;
      notifyAll();
    }
  }

  private void clearPending() {
    pending.clear();
    pendingBytes = 0;
  }

  public synchronized boolean putNodeAttribute(String key, String value) {
    if (key.isEmpty() || key.length() > KEY_MAX || value.length() > VALUE_MAX
        || attributeBytes + key.length() + value.length() > MAX_BYTES) {
      return false;
    }
    nodeAttributes.put(key, value);
    attributeBytes += key.length() + value.length();
    notifyAll();
    return true;
  }

  /** A node attribute; with {@code wait}, waits for another task here to put it (or the step's end). */
  public synchronized Optional<String> nodeAttribute(String key, boolean wait) throws InterruptedException {
    while (wait && !nodeAttributes.containsKey(key) && !closed) {
      wait();
    }
    return Optional.ofNullable(nodeAttributes.get(key));
  }

  /** The step ended here: whoever waits stops waiting. */
  public synchronized void close() {
    closed = true;
    notifyAll();
  }
}
