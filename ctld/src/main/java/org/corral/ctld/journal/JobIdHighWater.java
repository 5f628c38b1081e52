package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A job id mark that is always past every id the controller has handed out, kept in its own
 * small file and moved (durably, a block of ids at a time) before an id beyond it is
 * acknowledged. When the journal's tail is lost to damage, recovery starts numbering at the mark,
 * so an id a user may have been told is never given to another job.
 */
public final class JobIdHighWater {
  /** Ids reserved per write: one fsync per this many submissions. */
  static final int BLOCK = 1000;
  private static final String FILE = "job_id_high_water";

  private final Path file;
  private int mark;

  private JobIdHighWater(Path file, int mark) {
    this.file = file;
    this.mark = mark;
  }

  /** The mark kept in {@code dir}, 0 when there is none yet; an unreadable one is an error. */
  public static JobIdHighWater open(Path dir) throws IOException {
    Path f = dir.resolve(FILE);
    if (!Files.exists(f)) {
      return new JobIdHighWater(f, 0);
    }
    String text = Files.readString(f, StandardCharsets.US_ASCII).trim();
    try {
      return new JobIdHighWater(f, Integer.parseInt(text));
    } catch (NumberFormatException e) {
      throw new IOException(f + " does not hold a job id (\"" + text + "\")", e);
    }
  }

  /** Removes the mark kept in {@code dir} (the controller's -c: all state cleared). */
  public static void forget(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve(FILE));
  }

  /** No id at or above this has been handed out. */
  public int mark() {
    return mark;
  }

  /** Moves the mark past {@code nextJobId} (the next id to hand out), durably, if it is not already. */
  public void cover(int nextJobId) throws IOException {
    if (nextJobId <= mark) {
      return;
    }
    int next = (int) Math.min(Integer.MAX_VALUE, (long) nextJobId + BLOCK);
    Path tmp = file.resolveSibling(FILE + ".new");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(ByteBuffer.wrap((next + "\n").getBytes(StandardCharsets.US_ASCII)));
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    }
    mark = next;
  }
}
