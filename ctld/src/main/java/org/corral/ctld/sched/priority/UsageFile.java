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
  // billing-seconds fairshare charges (the same without TRESBillingWeights)
  private static final int VERSION = 3;

  /**
   * What was saved: usage by user and association (billing-seconds), by association (wall- and
   * CPU-seconds) and by QOS, as of {@code time} (epoch seconds).
   */
  record Saved(long time, Map<String, Double> byUser, Map<UsageTracker.JobAssoc, Double> byAssoc,
      Map<UsageTracker.JobAssoc, Double> wallByAssoc, Map<String, TimeUsage.Used> byQos,
      Map<UsageTracker.JobAssoc, Double> cpuByAssoc) {}

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
        writeAssocs(out, s.cpuByAssoc());
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot save usage to " + file + ": " + e.getMessage());
    }
  }

  private static void writeAssocs(DataOutputStream out, Map<UsageTracker.JobAssoc, Double> m) throws IOException {
    out.writeInt(m.size());
    for (Map.Entry<UsageTracker.JobAssoc, Double> e : m.entrySet()) {
      out.writeUTF(e.getKey().account());
      out.writeUTF(e.getKey().user());
      out.writeUTF(e.getKey().partition());
      out.writeDouble(e.getValue());
    }
  }

  private static Map<UsageTracker.JobAssoc, Double> readAssocs(DataInputStream in) throws IOException {
    Map<UsageTracker.JobAssoc, Double> m = new HashMap<>();
    for (int i = in.readInt(); i > 0; i--) {
      m.put(new UsageTracker.JobAssoc(in.readUTF(), in.readUTF(), in.readUTF()), in.readDouble());
    }
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
        return new Saved(time, byUser, byAssoc, Map.of(), Map.of(), byAssoc);
      }
      Map<UsageTracker.JobAssoc, Double> wallByAssoc = readAssocs(in);
      Map<String, TimeUsage.Used> byQos = new HashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        byQos.put(in.readUTF(), new TimeUsage.Used(in.readDouble(), in.readDouble()));
      }
      // Before 3 usage was CPU-seconds: the CPU-seconds are the same.
      return new Saved(time, byUser, byAssoc, wallByAssoc, byQos, version == 2 ? byAssoc : readAssocs(in));
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "ignoring unreadable usage file " + file + " (usage starts from zero): " + e);
      return null;
    }
  }
}
