package org.corral.cli.squeue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/** Resolves user names to uids, for filters that take either. */
@FunctionalInterface
public interface UserDirectory {
  OptionalInt uidOf(String name);

  /** Looks names up in a passwd(5) file. */
  static UserDirectory passwdFile(Path passwd) {
    return name -> {
      try (var lines = Files.lines(passwd)) {
        return lines.map(l -> l.split(":", -1))
            .filter(f -> f.length > 2 && f[0].equals(name))
            .mapToInt(f -> Integer.parseInt(f[2]))
            .findFirst();
      } catch (IOException | NumberFormatException e) {
        return OptionalInt.empty();
      }
    };
  }
}
