package org.corral.ctld.sched.priority;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import org.corral.ctld.sched.limits.TimeUsage;

/**
 * The decayed usage fairshare runs on, kept in StateSaveLocation (as Slurm keeps assoc_usage)
 * so that a controller restart does not forget who used what: written after each full
 * recalculation (a new file renamed over the old), read at start-up.
 */
final class UsageFile {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  // 2 added wall-seconds by association and usage by QOS; 3 CPU-seconds by association beside the
  // billing-seconds fairshare charges (the same without TRESBillingWeights); 4 the other TRES'
  // seconds (mem, node, billing, gres/...) by association and by QOS, after what 3 wrote
  private static final int VERSION = 4;

  /**
   * What was saved: usage by user and association (billing-seconds), by association (wall- and
   * CPU-seconds) and by QOS, as of {@code time} (epoch seconds).
   */
  record Saved(long time, Map<String, Double> byUser, Map<UsageTracker.JobAssoc, Double> byAssoc,
      Map<UsageTracker.JobAssoc, Double> wallByAssoc, Map<String, TimeUsage.Used> byQos,
      Map<UsageTracker.JobAssoc, TimeUsage.Used> tresByAssoc) {}

  private final Path file;

  UsageFile(Path file) {
    this.file = file;
  }

  void save(Saved s) {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    try {
      Files.createDirectories(file.getParent());
      try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
        out.writeInt(VERSION);
        out.writeLong(s.time());
        out.writeInt(s.byUser().size());
        for (Map.Entry<String, Double> e : s.byUser().entrySet()) {
          out.writeUTF(e.getKey());
          out.writeDouble(e.getValue());
        }
        writeAssocs(out, s.byAssoc());
        writeAssocs(out, s.wallByAssoc());
        out.writeInt(s.byQos().size());
        for (Map.Entry<String, TimeUsage.Used> e : s.byQos().entrySet()) {
          out.writeUTF(e.getKey());
          out.writeDouble(e.getValue().cpuSecs());
          out.writeDouble(e.getValue().wallSecs());
        }
        Map<UsageTracker.JobAssoc, Double> cpu = new HashMap<>();
        s.tresByAssoc().forEach((a, u) -> cpu.put(a, u.cpuSecs()));
        writeAssocs(out, cpu);
        out.writeInt(s.tresByAssoc().size());
        for (Map.Entry<UsageTracker.JobAssoc, TimeUsage.Used> e : s.tresByAssoc().entrySet()) {
          writeAssoc(out, e.getKey());
          writeOtherTres(out, e.getValue());
        }
        out.writeInt(s.byQos().size());
        for (Map.Entry<String, TimeUsage.Used> e : s.byQos().entrySet()) {
          out.writeUTF(e.getKey());
          writeOtherTres(out, e.getValue());
        }
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot save usage to " + file + ": " + e.getMessage());
    }
  }

  private static void writeAssocs(DataOutputStream out, Map<UsageTracker.JobAssoc, Double> m) throws IOException {
    out.writeInt(m.size());
    for (Map.Entry<UsageTracker.JobAssoc, Double> e : m.entrySet()) {
      writeAssoc(out, e.getKey());
      out.writeDouble(e.getValue());
    }
  }

  private static void writeAssoc(DataOutputStream out, UsageTracker.JobAssoc a) throws IOException {
    out.writeUTF(a.account());
    out.writeUTF(a.user());
    out.writeUTF(a.partition());
  }

  /** The TRES-seconds but CPU's (written before, as version 3 did). */
  private static void writeOtherTres(DataOutputStream out, TimeUsage.Used u) throws IOException {
    Map<String, Double> other = new HashMap<>(u.tresSecs());
    other.remove("cpu");
    out.writeInt(other.size());
    for (Map.Entry<String, Double> e : other.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeDouble(e.getValue());
    }
  }

  private static Map<String, Double> readOtherTres(DataInputStream in, double cpuSecs) throws IOException {
    Map<String, Double> m = new HashMap<>();
    m.put("cpu", cpuSecs);
    for (int i = in.readInt(); i > 0; i--) {
      m.put(in.readUTF(), in.readDouble());
    }
    return m;
  }

  private static Map<UsageTracker.JobAssoc, Double> readAssocs(DataInputStream in) throws IOException {
    Map<UsageTracker.JobAssoc, Double> m = new HashMap<>();
    for (int i = in.readInt(); i > 0; i--) {
      m.put(new UsageTracker.JobAssoc(in.readUTF(), in.readUTF(), in.readUTF()), in.readDouble());
    }
    return m;
  }

  private static Map<UsageTracker.JobAssoc, TimeUsage.Used> cpuOnly(Map<UsageTracker.JobAssoc, Double> cpu) {
    Map<UsageTracker.JobAssoc, TimeUsage.Used> m = new HashMap<>();
    cpu.forEach((a, secs) -> m.put(a, new TimeUsage.Used(secs, 0)));
    return m;
  }

  /** The saved usage, or null when there is none (or it cannot be read: then it starts afresh, logged). */
  Saved load() {
    if (!Files.exists(file)) {
      return null;
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      int version = in.readInt();
      if (version < 1 || version > VERSION) {
        throw new IOException("unknown version");
      }
      long time = in.readLong();
      Map<String, Double> byUser = new HashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        byUser.put(in.readUTF(), in.readDouble());
      }
      Map<UsageTracker.JobAssoc, Double> byAssoc = readAssocs(in);
      if (version == 1) { // written before the time limits: they start from zero
        return new Saved(time, byUser, byAssoc, Map.of(), Map.of(), cpuOnly(byAssoc));
      }
      Map<UsageTracker.JobAssoc, Double> wallByAssoc = readAssocs(in);
      Map<String, TimeUsage.Used> byQos = new HashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        byQos.put(in.readUTF(), new TimeUsage.Used(in.readDouble(), in.readDouble()));
      }
      // Before 3 usage was CPU-seconds: the CPU-seconds are the same. Before 4 only CPU's were kept.
      Map<UsageTracker.JobAssoc, TimeUsage.Used> tres = cpuOnly(version == 2 ? byAssoc : readAssocs(in));
      if (version >= 4) {
        for (int i = in.readInt(); i > 0; i--) {
          UsageTracker.JobAssoc a = new UsageTracker.JobAssoc(in.readUTF(), in.readUTF(), in.readUTF());
          tres.put(a, new TimeUsage.Used(readOtherTres(in, tres.getOrDefault(a, TimeUsage.Used.ZERO).cpuSecs()), 0));
        }
        for (int i = in.readInt(); i > 0; i--) {
          String q = in.readUTF();
          TimeUsage.Used had = byQos.getOrDefault(q, TimeUsage.Used.ZERO);
          byQos.put(q, new TimeUsage.Used(readOtherTres(in, had.cpuSecs()), had.wallSecs()));
        }
      }
      return new Saved(time, byUser, byAssoc, wallByAssoc, byQos, tres);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "ignoring unreadable usage file " + file + " (usage starts from zero): " + e);
      return null;
    }
  }
}
