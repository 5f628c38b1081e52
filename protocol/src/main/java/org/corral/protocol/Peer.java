package org.corral.protocol;

/**
 * Who sent a request. Over the Unix socket uid/gid/userName come from the kernel (SO_PEERCRED);
 * {@code daemon} is the verified credential sender, or null for a plain local user. Daemons
 * reaching us over TCP have no kernel identity: their uid and gid are {@link #UNKNOWN_ID} and
 * their userName is null.
 */
public record Peer(int uid, int gid, String userName, String daemon) {
  public static final int UNKNOWN_ID = -1;

  /** A daemon known only by its verified credential (TCP). */
  public static Peer daemon(String sender) {
    return new Peer(UNKNOWN_ID, UNKNOWN_ID, null, sender);
  }

  public boolean isDaemon() {
    return daemon != null;
  }
}
