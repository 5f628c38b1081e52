package org.corral.ctld.triggers;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.corral.protocol.msg.TriggerInfo;
import org.corral.protocol.msg.TriggerState;

/**
 * The triggers strigger set, kept as Slurm keeps them: in a file of their own in
 * StateSaveLocation (trigger_state), rewritten (temporary file, fsync, rename) before a change
 * is acknowledged, so a restarted controller has every trigger it confirmed. Ids keep counting
 * across restarts. Thread-safe: requests and the trigger loop share it.
 */
public final class TriggerTable {
  static final String FILE = "trigger_state";

  private final Path file;
  private final Map<Integer, TriggerInfo> triggers = new LinkedHashMap<>();
  private int lastId;

  private TriggerTable(Path file) {
    this.file = file;
  }

  /** The table saved in {@code stateDir}, empty when there is none. */
  public static TriggerTable load(Path stateDir) throws IOException {
    TriggerTable t = new TriggerTable(stateDir.resolve(FILE));
    if (Files.exists(t.file)) {
      TriggerState s = TriggerState.parseFrom(Files.readAllBytes(t.file));
      t.lastId = s.getLastId();
      s.getTriggersList().forEach(tr -> t.triggers.put(tr.getId(), tr));
    }
    return t;
  }

  /** Adds the trigger under the next id; returns it once saved. */
  public synchronized TriggerInfo add(TriggerInfo trigger) throws IOException {
    TriggerInfo t = trigger.toBuilder().setId(lastId + 1).build();
    triggers.put(t.getId(), t);
    lastId = t.getId();
    save();
    return t;
  }

  public synchronized List<TriggerInfo> all() {
    return List.copyOf(triggers.values());
  }

  /** Removes those matching; returns them (saved when any). */
  public synchronized List<TriggerInfo> removeIf(Predicate<TriggerInfo> which) throws IOException {
    List<TriggerInfo> removed = new ArrayList<>();
    for (TriggerInfo t : triggers.values()) {
      if (which.test(t)) {
        removed.add(t);
      }
    }
    if (!removed.isEmpty()) {
      removed.forEach(t -> triggers.remove(t.getId()));
      save();
    }
    return removed;
  }

  /** Removes these ids (fired triggers). */
  public synchronized void removeIds(Collection<Integer> ids) throws IOException {
    if (triggers.keySet().removeAll(ids)) {
      save();
    }
  }

  private void save() throws IOException {
    byte[] bytes = TriggerState.newBuilder().setLastId(lastId).addAllTriggers(triggers.values()).build().toByteArray();
    Path tmp = file.resolveSibling(FILE + ".new");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING); OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
      out.write(bytes);
      out.flush();
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
