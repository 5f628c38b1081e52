package org.corral.ctld.journal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/** Test helpers: payloads that name their index, and ways to damage journal files. */
final class JournalFixtures {
  private JournalFixtures() {}

  /** A payload of {@code size} bytes that differs for every index, so misplaced records show. */
  static byte[] payload(long index, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (index * 31 + i * 7);
    }
    return b;
  }

  static List<Long> indexes(Recovery recovery) {
    return recovery.entries().stream().map(JournalEntry::index).toList();
  }

  static List<Path> segmentFiles(Path dir) throws IOException {
    return JournalFiles.segments(dir).stream().map(JournalFiles.Numbered::path).toList();
  }

  static List<Path> filesEndingWith(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(offset);
      int b = raf.read();
      raf.seek(offset);
      raf.write(b ^ 0x5a);
    }
  }

  static void truncate(Path file, long size) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(size);
    }
  }

  static void copyDir(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      files.forEach(
          f -> {
            try {
              Files.copy(f, to.resolve(f.getFileName()));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
  }

  /** What a property does inside its own temporary directory. */
  interface DirectoryTask {
    void run(Path dir) throws Exception;
  }

  /**
   * Runs {@code task} in a fresh temporary directory and removes it afterwards: jqwik properties do
   * not get JUnit's {@code @TempDir}.
   */
  static void inTempDir(DirectoryTask task) throws Exception {
    Path dir = Files.createTempDirectory("corral-journal-test");
    try {
      task.run(dir);
    } finally {
      deleteRecursively(dir);
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Offset just past each record of a single segment holding records of these payload sizes. */
  static long[] recordEnds(List<Integer> sizes) {
    long[] ends = new long[sizes.size()];
    long offset = SegmentHeader.BYTES;
    for (int i = 0; i < sizes.size(); i++) {
      offset += RecordFrame.frameBytes(sizes.get(i));
      ends[i] = offset;
    }
    return ends;
  }
}
