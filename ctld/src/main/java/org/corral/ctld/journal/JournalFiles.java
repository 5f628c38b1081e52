package org.corral.ctld.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Names and directory operations of a journal directory. Segments are {@code journal-<20-digit base
 * index>.log} and snapshots {@code snapshot-<20-digit last index>.snap}, so a plain {@code ls}
 * lists both in log order. Files set aside after damage get {@code .damaged}.
 */
final class JournalFiles {
  static final String LOCK_FILE = "journal.lock";
  static final String TEMP_SUFFIX = ".tmp";
  private static final String SEGMENT_PREFIX = "journal-";
  private static final String SEGMENT_SUFFIX = ".log";
  private static final String SNAPSHOT_PREFIX = "snapshot-";
  private static final String SNAPSHOT_SUFFIX = ".snap";
  private static final String DAMAGED_SUFFIX = ".damaged";
  private static final int DIGITS = 20;

  private JournalFiles() {}

  /** A segment or snapshot file and the index its name carries. */
  record Numbered(Path path, long index) {}

  static Path segment(Path dir, long baseIndex) {
    return dir.resolve(SEGMENT_PREFIX + digits(baseIndex) + SEGMENT_SUFFIX);
  }

  static Path snapshot(Path dir, long lastIndex) {
    return dir.resolve(SNAPSHOT_PREFIX + digits(lastIndex) + SNAPSHOT_SUFFIX);
  }

  /** Segment files, oldest first. */
  static List<Numbered> segments(Path dir) throws IOException {
    return list(dir, SEGMENT_PREFIX, SEGMENT_SUFFIX);
  }

  /** Snapshot files, oldest first. */
  static List<Numbered> snapshots(Path dir) throws IOException {
    return list(dir, SNAPSHOT_PREFIX, SNAPSHOT_SUFFIX);
  }

  /** Leftovers of snapshot writes that a crash interrupted. */
  static List<Path> temporaryFiles(Path dir) throws IOException {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(dir, SNAPSHOT_PREFIX + "*" + TEMP_SUFFIX)) {
      files.forEach(found::add);
    }
    return found;
  }

  /** Makes creations, renames and deletions in {@code dir} durable. */
  static void syncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /** Renames a damaged file out of the way, keeping it for inspection; returns the new name. */
  static Path moveAside(Path file) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Path target = asideName(file, attempt);
      try {
        return Files.move(file, target);
      } catch (FileAlreadyExistsException e) {
        // an earlier recovery set aside a file of the same name: try the next suffix
      }
    }
  }

  /** Copies a file that is about to be truncated, so the cut bytes survive; returns the copy. */
  static Path copyAside(Path file) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Path target = asideName(file, attempt);
      try {
        return Files.copy(file, target);
      } catch (FileAlreadyExistsException e) {
        // as in moveAside
      }
    }
  }

  private static Path asideName(Path file, int attempt) {
    String name = file.getFileName() + DAMAGED_SUFFIX + (attempt == 0 ? "" : "." + attempt);
    return file.resolveSibling(name);
  }

  private static List<Numbered> list(Path dir, String prefix, String suffix) throws IOException {
    List<Numbered> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*" + suffix)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        String number = name.substring(prefix.length(), name.length() - suffix.length());
        if (number.length() == DIGITS && number.chars().allMatch(c -> c >= '0' && c <= '9')) {
          try {
            found.add(new Numbered(file, Long.parseLong(number)));
          } catch (NumberFormatException e) {
            // beyond a long: not a name this journal wrote, so not one of its files
          }
        }
      }
    }
    found.sort(Comparator.comparingLong(Numbered::index));
    return found;
  }

  private static String digits(long index) {
    return String.format("%0" + DIGITS + "d", index);
  }
}
