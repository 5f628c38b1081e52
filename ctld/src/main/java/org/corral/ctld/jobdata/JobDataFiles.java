package org.corral.ctld.jobdata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Content-addressed files: each named by the SHA-256 of what it holds, under a directory per
 * first byte ({@code ab/ab12...}), files 0600 and directories 0700 (they hold users' scripts and
 * environments). A file appears whole or not at all: written under a temporary name, fsynced,
 * renamed, and its directory fsynced before {@link #write} returns.
 */
final class JobDataFiles {
  private static final String TEMP_SUFFIX = ".tmp";
  private static final HexFormat HEX = HexFormat.of();

  private final Path dir;

  JobDataFiles(Path dir) throws IOException {
    this.dir = dir;
    createPrivateDirectory(dir);
  }

  static String hash(byte[] content) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** Stores {@code content} under {@code hash} durably unless a file of that name is there. */
  void writeIfAbsent(String hash, byte[] content) throws IOException {
    Path target = path(hash);
    if (Files.exists(target)) {
      return;
    }
    Path parent = target.getParent();
    createPrivateDirectory(parent);
    Path temp = parent.resolve(hash + "." + Thread.currentThread().threadId() + TEMP_SUFFIX);
    try (FileChannel out = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        out.write(buf);
      }
      out.force(true);
    } catch (FileAlreadyExistsException e) {
      throw new IOException("stale temporary file " + temp, e);
    }
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDirectory(parent);
  }

  /** The content stored under {@code hash}, checked against it. */
  byte[] read(String hash) throws IOException {
    Path file = path(hash);
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IOException("job data file " + file + " is missing");
    }
    if (!hash(content).equals(hash)) {
      throw new IOException("job data file " + file + " is damaged (its content does not match its name)");
    }
    return content;
  }

  void delete(String hash) throws IOException {
    Files.deleteIfExists(path(hash));
  }

  /**
   * Every stored hash; removes temporary files a crash left behind and fsyncs each directory, so
   * that what a crashed process renamed but did not sync is durable before it is relied upon.
   */
  Set<String> recoverAll() throws IOException {
    Set<String> out = new HashSet<>();
    try (Stream<Path> subdirs = Files.list(dir)) {
      for (Path sub : subdirs.filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.list(sub)) {
          for (Path f : files.toList()) {
            String name = f.getFileName().toString();
            if (name.endsWith(TEMP_SUFFIX)) {
              Files.delete(f);
            } else {
              out.add(name);
            }
          }
        }
        syncDirectory(sub);
      }
    }
    return out;
  }

  /** Whether {@code ref} can name a file here: 64 lower-case hex digits, nothing else. */
  static boolean isHash(String ref) {
    if (ref.length() != 64) {
      return false;
    }
    for (int i = 0; i < ref.length(); i++) {
      char c = ref.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private Path path(String hash) {
    if (!isHash(hash)) {
      throw new IllegalArgumentException("not a job data reference: " + hash);
    }
    return dir.resolve(hash.substring(0, 2)).resolve(hash);
  }

  private static void createPrivateDirectory(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      try {
        Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException e) {
        // made meanwhile by another submission
      }
    }
  }

  private static void syncDirectory(Path d) throws IOException {
    try (FileChannel channel = FileChannel.open(d, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
