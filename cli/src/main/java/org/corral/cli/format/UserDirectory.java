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

  /**
   * The uids a -u/--user list names: numbers as they are, names looked up; each unknown name
   * goes to {@code unknown} (commands report it and go on, as Slurm's do).
   */
  default java.util.Set<Integer> uidsOf(java.util.List<String> names, java.util.function.Consumer<String> unknown) {
    java.util.Set<Integer> uids = new java.util.HashSet<>();
    for (String u : names) {
      if (!u.isEmpty() && u.chars().allMatch(Character::isDigit)) {
        uids.add(Integer.parseUnsignedInt(u));
        continue;
      }
      OptionalInt uid = uidOf(u);
      if (uid.isPresent()) {
        uids.add(uid.getAsInt());
      } else {
        unknown.accept(u);
      }
    }
    return uids;
  }

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

  /** Knows exactly these users (name to uid): a recording's machine, in tests and replays. */
  static UserDirectory of(java.util.Map<String, Integer> uidsByName) {
    java.util.Map<String, Integer> byName = java.util.Map.copyOf(uidsByName);
    return new UserDirectory() {
      @Override
      public OptionalInt uidOf(String name) {
        Integer uid = byName.get(name);
        return uid == null ? OptionalInt.empty() : OptionalInt.of(uid);
      }

      @Override
      public Optional<String> nameOf(int uid) {
        return byName.entrySet().stream().filter(e -> e.getValue() == uid).map(java.util.Map.Entry::getKey)
            .findFirst();
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
