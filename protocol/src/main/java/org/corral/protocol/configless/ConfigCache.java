package org.corral.protocol.configless;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.corral.protocol.msg.ConfigFile;

/**
 * A configless daemon's copy of the controller's files (slurmd: SlurmdSpoolDir/conf-cache, as in
 * Slurm; sackd: its own directory). Each file is replaced whole (written beside, then renamed), a
 * file the controller no longer serves is removed, and only names Slurm serves are ever written:
 * a hostile or confused server cannot write elsewhere.
 */
public final class ConfigCache {
  private ConfigCache() {}

  /** Writes the files into {@code dir} (created 0755); returns the path of slurm.conf there. */
  public static Path write(Path dir, List<ConfigFile> files) throws IOException {
    Files.createDirectories(dir);
    Set<String> written = new HashSet<>();
    for (ConfigFile f : files) {
      if (!ConfigFiles.NAMES.contains(f.getName()) || f.getContent().size() > ConfigFiles.MAX_FILE_BYTES) {
        throw new IOException("configuration server sent an unexpected file: " + f.getName());
      }
      Path tmp = dir.resolve("." + f.getName() + ".new");
      Files.write(tmp, f.getContent().toByteArray());
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      Files.move(tmp, dir.resolve(f.getName()), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      written.add(f.getName());
    }
    if (!written.contains("slurm.conf")) {
      throw new IOException("configuration server sent no slurm.conf");
    }
    for (String name : ConfigFiles.NAMES) {
      if (!written.contains(name)) {
        Files.deleteIfExists(dir.resolve(name));
      }
    }
    return dir.resolve("slurm.conf");
  }
}
