package org.corral.common;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Files that hold other users' data (the controller's journal and snapshots with every job's
 * script and environment, the accounting database, logs) are the daemon's alone: 0600, their
 * directories 0700, as Slurm keeps them. New ones are made so (the daemons also run with umask
 * 077); ones an earlier version or an administrator left open are closed at start, with a
 * warning naming them.
 */
public final class PrivateFiles {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private PrivateFiles() {}

  /** Creates {@code file} empty and 0600 if it is missing; closes it to others if it is open. */
  public static void ensurePrivate(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // made meanwhile: closed below
      }
    }
    closeToOthers(file);
  }

  /**
   * Removes every group and other permission from {@code root} and what is under it (links are
   * not followed); returns the paths that had any.
   */
  public static List<Path> closeTree(Path root) throws IOException {
    return closeTree(root, true);
  }

  /** As {@link #closeTree(Path)}; directories left as they are unless {@code directories}. */
  public static List<Path> closeTree(Path root, boolean directories) throws IOException {
    List<Path> opened = new ArrayList<>();
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return opened;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (directories && closeToOthers(dir)) {
          opened.add(dir);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (attrs.isRegularFile() && closeToOthers(file)) {
          opened.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return opened;
  }

  /** Whether {@code path} was open to group or others (and now is not). */
  public static boolean closeToOthers(Path path) throws IOException {
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    if (mode.stream().noneMatch(OTHERS::contains)) {
      return false;
    }
    Set<PosixFilePermission> own = EnumSet.noneOf(PosixFilePermission.class);
    mode.stream().filter(p -> !OTHERS.contains(p)).forEach(own::add);
    Files.setPosixFilePermissions(path, own);
    return true;
  }
}
