package org.corral.slurmd.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Installs the shell scripts slurmd runs jobs through into its spool directory. */
public final class SpoolScripts {
  private SpoolScripts() {}

  /** Copies the resource {@code name} (next to {@code owner}) to {@code spoolDir/name}, mode 0755. */
  public static void install(Path spoolDir, String name, Class<?> owner) throws IOException {
    Path target = spoolDir.resolve(name);
    Path tmp = spoolDir.resolve(name + ".tmp");
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("resource missing: " + name);
      }
      Files.write(tmp, in.readAllBytes());
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    // A running job keeps reading its own copy: replace the file, never rewrite it in place.
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
