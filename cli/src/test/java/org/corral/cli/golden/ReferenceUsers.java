package org.corral.cli.golden;

import java.util.Map;
import org.corral.cli.format.UserDirectory;

/** The users of the accounting reference's recordings (/work/acct-ref): root 0, alice 1001, bob 1002. */
public final class ReferenceUsers {
  public static final UserDirectory INSTANCE = UserDirectory.of(Map.of("root", 0, "alice", 1001, "bob", 1002));

  private ReferenceUsers() {}
}
