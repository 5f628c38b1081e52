package org.corral.slurmd.launch;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Keeps the spool directories of acknowledged jobs, emptied, for the next jobs, instead of
 * deleting them and creating new ones. On ext4 without a journal (this VM's root and /tmp) each
 * new inode first skips every inode deleted in the last minute (recently_deleted): at hundreds
 * of jobs a second, creating and deleting four inodes a job was the largest part of a node
 * daemon's CPU. A recycled directory keeps its own inode and those of its root-owned launch and
 * record files, emptied; the script keeps its inode only for a job of the same user, since its
 * owner may still hold it open for writing.
 *
 * A directory leaves the job namespace (jobNNNNN) before it is emptied, and enters it again only
 * empty, so a restarted slurmd never takes an earlier job's record for a new job's. Directories
 * left in the pool by an earlier slurmd are deleted at start.
 */
final class SpoolRecycler {
  private static final System.Logger LOG = System.getLogger(SpoolRecycler.class.getName());
  static final String POOL = "recycled";
  /** Enough for a burst of short jobs on a large node; more are deleted. */
  private static final int MAX_KEPT = 256;
  /** Files emptied and kept; everything else in a job's directory is deleted. */
  private static final Set<String> KEPT = Set.of(UserLaunch.FILE, JobDirectory.RECORD, JobDirectory.SCRIPT);

  private final Path pool;
  private final Deque<Path> free = new ArrayDeque<>();
  private long nextName;

  SpoolRecycler(Path spoolDir) throws IOException {
    this.pool = spoolDir.resolve(POOL);
    JobDirectory.deleteTree(pool);
    Files.createDirectory(pool);
  }

  /**
   * Creates {@code dir}, from a recycled directory where there is one; false when it already
   * exists (the job was launched before).
   */
  boolean create(JobDirectory dir) throws IOException {
    Path recycled = take();
    if (recycled == null) {
      return dir.create();
    }
    try {
      Files.move(recycled, dir.path());
      return true;
    } catch (FileAlreadyExistsException e) {
      give(recycled);
      return false;
    } catch (IOException e) {
      JobDirectory.deleteTree(recycled);
      return dir.create();
    }
  }

  /** Takes an acknowledged job's directory out of the spool: into the pool, or deleted. */
  void recycle(JobDirectory dir) throws IOException {
    Path kept;
    synchronized (this) {
      kept = free.size() < MAX_KEPT ? pool.resolve(Long.toString(nextName++)) : null;
    }
    if (kept == null) {
      dir.delete();
      return;
    }
    try {
      Files.move(dir.path(), kept);
    } catch (NoSuchFileException e) {
      return;
    }
    try {
      empty(kept);
      give(kept);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, "cannot empty " + kept + " for reuse: " + e.getMessage());
      JobDirectory.deleteTree(kept);
    }
  }

  private static void empty(Path kept) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(kept)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!KEPT.contains(name)) {
          JobDirectory.deleteEntry(entry);
        } else if (!name.equals(JobDirectory.SCRIPT)) {
          try (FileChannel file = FileChannel.open(entry, StandardOpenOption.WRITE)) {
            file.truncate(0);
          }
        }
      }
    }
  }

  private synchronized Path take() {
    return free.pollFirst();
  }

  private synchronized void give(Path kept) {
    free.addFirst(kept);
  }
}
