package org.corral.cli.format;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Resolves user names to uids and back, for filters that take either and for display. The
 * commands use the system's ({@link #system()}); tests give their own.
 */
public interface UserDirectory {
  OptionalInt uidOf(String name);

  Optional<String> nameOf(int uid);

  /** The system's users (passwd, then NSS through getent), as the daemons see them too. */
  static UserDirectory system() {
    org.corral.protocol.UserDirectory users = org.corral.protocol.UserDirectory.system();
    return new UserDirectory() {
      @Override
      public OptionalInt uidOf(String name) {
        return users.uid(name);
      }

      @Override
      public Optional<String> nameOf(int uid) {
        return users.userName(uid);
      }
    };
  }

  /** Knows no user: names stay names, uids stay numbers. */
  static UserDirectory none() {
    return new UserDirectory() {
      @Override
      public OptionalInt uidOf(String name) {
        return OptionalInt.empty();
      }

      @Override
      public Optional<String> nameOf(int uid) {
        return Optional.empty();
      }
    };
  }
}
