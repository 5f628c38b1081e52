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

/**
 * The decayed usage fairshare runs on, kept in StateSaveLocation (as Slurm keeps assoc_usage)
 * so that a controller restart does not forget who used what: written after each full
 * recalculation (a new file renamed over the old), read at start-up.
 */
final class UsageFile {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  private static final int VERSION = 1;

  /** What was saved: usage by user and by association, as of {@code time} (epoch seconds). */
  record Saved(long time, Map<String, Double> byUser, Map<UsageTracker.JobAssoc, Double> byAssoc) {}

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
        out.writeInt(s.byAssoc().size());
        for (Map.Entry<UsageTracker.JobAssoc, Double> e : s.byAssoc().entrySet()) {
          out.writeUTF(e.getKey().account());
          out.writeUTF(e.getKey().user());
          out.writeUTF(e.getKey().partition());
          out.writeDouble(e.getValue());
        }
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot save usage to " + file + ": " + e.getMessage());
    }
  }

  /** The saved usage, or null when there is none (or it cannot be read: then it starts afresh, logged). */
  Saved load() {
    if (!Files.exists(file)) {
      return null;
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      if (in.readInt() != VERSION) {
        throw new IOException("unknown version");
      }
      long time = in.readLong();
      Map<String, Double> byUser = new HashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        byUser.put(in.readUTF(), in.readDouble());
      }
      Map<UsageTracker.JobAssoc, Double> byAssoc = new HashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        byAssoc.put(new UsageTracker.JobAssoc(in.readUTF(), in.readUTF(), in.readUTF()), in.readDouble());
      }
      return new Saved(time, byUser, byAssoc);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "ignoring unreadable usage file " + file + " (usage starts from zero): " + e);
      return null;
    }
  }
}
