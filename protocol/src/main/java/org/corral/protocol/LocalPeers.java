package org.corral.protocol;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.OptionalInt;
import java.util.function.Function;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The identity of the process at the other end of a Unix socket, as the kernel reports it
 * (SO_PEERCRED). The JDK gives names, or the number itself when an id has no name.
 */
final class LocalPeers {
  private LocalPeers() {}

  static Peer of(SocketChannel channel, UserDirectory directory) throws IOException {
    UnixDomainPrincipal principal = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
    String user = principal.user().getName();
    String group = principal.group().getName();
    int uid = toId(user, directory::uid, "user");
    int gid = toId(group, directory::gid, "group");
    String userName = isNumber(user) ? directory.userName(uid).orElse(user) : user;
    return new Peer(uid, gid, userName, null);
  }

  private static int toId(String name, Function<String, OptionalInt> lookup, String kind)
      throws IOException {
    OptionalInt id = lookup.apply(name);
    if (id.isPresent()) {
      return id.getAsInt();
    }
    if (isNumber(name)) {
      return Integer.parseInt(name);
    }
    throw new IOException("peer's " + kind + " " + name + " is not in the user directory");
  }

  private static boolean isNumber(String s) {
    return !s.isEmpty() && s.length() <= 10 && s.chars().allMatch(Character::isDigit)
        && Long.parseLong(s) <= Integer.MAX_VALUE;
  }
}
