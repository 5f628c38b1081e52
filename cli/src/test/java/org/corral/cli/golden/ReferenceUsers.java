package org.corral.cli.golden;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.corral.cli.format.UserDirectory;

/** The users of the accounting reference's recordings (/work/acct-ref): root 0, alice 1001, bob 1002. */
public final class ReferenceUsers implements UserDirectory {
  public static final ReferenceUsers INSTANCE = new ReferenceUsers();
  private static final Map<String, Integer> UIDS = Map.of("root", 0, "alice", 1001, "bob", 1002);

  private ReferenceUsers() {}

  @Override
  public OptionalInt uidOf(String name) {
    Integer uid = UIDS.get(name);
    return uid == null ? OptionalInt.empty() : OptionalInt.of(uid);
  }

  @Override
  public Optional<String> nameOf(int uid) {
    return UIDS.entrySet().stream().filter(e -> e.getValue() == uid).map(Map.Entry::getKey).findFirst();
  }
}
