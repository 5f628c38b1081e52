package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.corral.common.config.AccountingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.LimitCheck;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * The cluster's associations, users and QOS as slurmdbd last gave them: fetched every
 * {@link #REFRESH} and at once when a submission names something not known yet (a user just
 * added with sacctmgr), and saved in StateSaveLocation, so that with slurmdbd away - even across
 * a controller restart - the cluster keeps enforcing what it last knew.
 */
final class AssociationCache implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  static final Duration REFRESH = Duration.ofSeconds(10);

  private final RpcChannel dbd; // null: nothing to fetch from
  private final boolean enabled;
  private final String cluster;
  private final Path file;
  private final LimitCheck.Enforce enforce;
  private final java.util.Set<String> enforced;
  private final boolean trackWckey;
  private final Thread thread;
  private volatile AssocTree tree;
  private volatile boolean running = true;
  private volatile boolean warned;

  AssociationCache(AccountingConfig cfg, String cluster, Credentials creds, Path stateDir) {
    this.cluster = cluster;
    this.file = stateDir.resolve("assoc_cache");
    this.enforced = cfg.enforce();
    this.trackWckey = cfg.trackWckey();
    this.enforce = LimitCheck.Enforce.of(cfg.enforce());
    this.dbd = cfg.enabled() ? new TcpChannel(cfg.host(), cfg.port(), "slurmdbd", creds, Duration.ofSeconds(5)) : null;
    this.enabled = cfg.enabled();
    this.tree = load();
    this.thread = dbd == null ? null : Thread.ofPlatform().name("associations").daemon().start(this::loop);
  }

  /** A cache holding {@code fixed} for good, as if slurmdbd had sent it (tests). */
  AssociationCache(AssocTree fixed, java.util.Set<String> enforce) {
    this.dbd = null;
    this.enabled = true;
    this.cluster = "";
    this.file = null;
    this.enforced = enforce;
    this.trackWckey = enforce.contains("wckeys");
    this.enforce = LimitCheck.Enforce.of(enforce);
    this.tree = fixed;
    this.thread = null;
  }

  boolean enabled() {
    return enabled;
  }

  /** AccountingStorageEnforce contains {@code what} (associations, limits, qos, safe). */
  boolean enforces(String what) {
    return enabled && enforced.contains(what);
  }

  /** TrackWCKey: jobs carry a wckey. */
  boolean tracksWckeys() {
    return enabled && trackWckey;
  }

  LimitCheck.Enforce limits() {
    return enabled ? enforce : LimitCheck.Enforce.NONE;
  }

  AssocTree current() {
    return tree;
  }

  /** Fetches now (a submission named a user or account not known yet); false if slurmdbd did not answer. */
  boolean refresh() {
    if (dbd == null) {
      return false;
    }
    try {
      Response r = dbd.call(Request.newBuilder().setAssocSnapshot(AssocSnapshotRequest.newBuilder()
          .setCluster(cluster)).build());
      if (r.getErrorCode() != 0) {
        throw new IOException(r.getErrorMessage());
      }
      AssocSnapshot snap = r.getAssocSnapshot();
      if (!snap.equals(tree.snapshot())) {
        tree = new AssocTree(snap, cluster);
        save(snap);
      }
      if (warned) {
        LOG.log(Level.INFO, "associations from slurmdbd again");
        warned = false;
      }
      return true;
    } catch (IOException | RuntimeException e) {
      if (!warned) {
        LOG.log(Level.WARNING, "cannot fetch associations from slurmdbd (enforcing the last known): " + e.getMessage());
        warned = true;
      }
      return false;
    }
  }

  private void loop() {
    while (running) {
      refresh();
      try {
        Thread.sleep(REFRESH.toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private AssocTree load() {
    try {
      if (Files.exists(file)) {
        return new AssocTree(AssocSnapshot.parseFrom(Files.readAllBytes(file)), cluster);
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "ignoring unreadable " + file + ": " + e.getMessage());
    }
    return AssocTree.NONE;
  }

  private void save(AssocSnapshot snap) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling("assoc_cache.new");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(tmp, snap.toByteArray());
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot save associations to " + file + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    running = false;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
