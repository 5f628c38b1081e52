package org.corral.testkit;

import java.io.IOException;
import java.net.ServerSocket;

/** Free TCP ports, asked of the OS, for tests that start daemons. */
public final class FreePorts {
  private FreePorts() {}

  public static int one() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A base port P such that P..P+span-1 were all free when asked (a cluster's port block).
   * Picks below Linux's default ephemeral range (32768-60999), so that connections the OS opens
   * meanwhile do not take ports of the block.
   */
  public static int block(int span) {
    java.util.Random r = new java.util.Random();
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = 20000 + r.nextInt(12000 - span);
      if (allFree(base, span)) {
        return base;
      }
    }
    throw new IllegalStateException("no free block of " + span + " ports");
  }

  private static boolean allFree(int base, int span) {
    for (int p = base; p < base + span; p++) {
      try (ServerSocket s = new ServerSocket(p)) {
        s.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
