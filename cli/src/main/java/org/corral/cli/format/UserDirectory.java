package org.corral.cli.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/** Resolves user names to uids and back, for filters that take either and for display. */
public interface UserDirectory {
  OptionalInt uidOf(String name);

  Optional<String> nameOf(int uid);

  /** Looks users up in a passwd(5) file. */
  static UserDirectory passwdFile(Path passwd) {
    return new UserDirectory() {
      @Override
      public OptionalInt uidOf(String name) {
        return entry(2, 0, name).map(Integer::parseInt).map(OptionalInt::of)
            .orElse(OptionalInt.empty());
      }

      @Override
      public Optional<String> nameOf(int uid) {
        return entry(0, 2, Integer.toUnsignedString(uid));
      }

      private Optional<String> entry(int want, int key, String value) {
        try (var lines = Files.lines(passwd)) {
          return lines.map(l -> l.split(":", -1))
              .filter(f -> f.length > 2 && f[key].equals(value) && f[2].matches("\\d+"))
              .map(f -> f[want])
              .findFirst();
        } catch (IOException | RuntimeException e) {
          return Optional.empty();
        }
      }
    };
  }
}
