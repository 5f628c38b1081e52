package org.corral.slurmd.launch;

import java.util.List;
import java.util.Map;

/**
 * Process builders for the helpers slurmd runs as root. They never inherit the daemon's
 * environment: a root process must not see LD_PRELOAD and the like from anywhere.
 */
public final class CleanProcess {
  static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private CleanProcess() {}

  public static ProcessBuilder builder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.clear();
    env.put("PATH", PATH);
    env.put("LC_ALL", "C");
    builder.directory(new java.io.File("/"));
    return builder;
  }
}
