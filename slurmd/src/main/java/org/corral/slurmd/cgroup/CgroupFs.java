package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The few file operations the backends make. On a cgroup file system a directory holding only
 * its control files is removed with rmdir; a plain directory tree (tests lay one out like
 * cgroup2) has to lose its files first: {@link #plainTree()}.
 */
class CgroupFs {
  private static final int MAX_READ = 64 * 1024;

  /** The kernel's cgroup file systems. */
  static CgroupFs kernel() {
    return new CgroupFs();
  }

  /** A directory tree standing in for a cgroup file system. */
  static CgroupFs plainTree() {
    return new CgroupFs() {
      @Override
      void removeDir(Path dir) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, Files::isRegularFile)) {
          for (Path f : files) {
            Files.delete(f);
          }
        }
        Files.delete(dir);
      }
    };
  }

  boolean mkdir(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return false;
    }
    try {
      Files.createDirectory(dir);
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      return false;
    }
  }

  /** Writes one value the way echo does: the kernel takes each write as one command. */
  void write(Path file, String value) throws IOException {
    try {
      Files.writeString(file, value + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      throw new IOException("cannot write '" + value + "' to " + file + ": " + reason(e), e);
    }
  }

  Optional<String> read(Path file) {
    try (var in = Files.newInputStream(file)) {
      return Optional.of(new String(in.readNBytes(MAX_READ), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The value of "KEY N" in a flat keyed file (memory.events, cpu.stat, cpuacct.stat), or -1. */
  long keyed(Path file, String key) {
    return keyed(file, new String[] {key})[0];
  }

  /** The values of several keys of one flat keyed file, read once; -1 for each one missing. */
  long[] keyed(Path file, String... keys) {
    long[] values = new long[keys.length];
    java.util.Arrays.fill(values, -1L);
    read(file).ifPresent(text -> {
      for (String line : text.split("\n")) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length != 2) {
          continue;
        }
        for (int i = 0; i < keys.length; i++) {
          if (parts[0].equals(keys[i])) {
            try {
              values[i] = Long.parseLong(parts[1]);
            } catch (NumberFormatException e) {
              values[i] = -1L;
            }
          }
        }
      }
    });
    return values;
  }

  long number(Path file) {
    return read(file).map(String::strip).map(t -> {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        return -1L;
      }
    }).orElse(-1L);
  }

  List<Path> subdirs(Path dir, String prefix) {
    List<Path> out = new ArrayList<>();
    // The name first: a cgroup holds dozens of control files, and each stat of one costs the
    // kernel (kernfs) more than the rest of a job's cleanup.
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir,
        p -> p.getFileName().toString().startsWith(prefix) && Files.isDirectory(p))) {
      entries.forEach(out::add);
    } catch (IOException e) {
      // gone or unreadable: no children
    }
    out.sort(null);
    return out;
  }

  void removeDir(Path dir) throws IOException {
    Files.delete(dir);
  }

  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    String m = e.getMessage();
    int colon = m == null ? -1 : m.lastIndexOf(": ");
    return colon >= 0 ? m.substring(colon + 2) : String.valueOf(m);
  }
}
