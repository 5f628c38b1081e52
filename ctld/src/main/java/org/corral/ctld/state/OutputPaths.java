package org.corral.ctld.state;

import org.corral.protocol.msg.JobSpec;

/**
 * The stdout/stderr paths scontrol shows: absolute (relative ones sit in the work dir), the
 * default {@code slurm-%j.out}, and the patterns known at submit time filled in. %N (the node)
 * and %t/%n stay for the node daemon, which knows them.
 */
public final class OutputPaths {
  private OutputPaths() {}

  public static String resolve(String pattern, JobSpec spec, int jobId, String user) {
    String p = pattern.isEmpty() ? "slurm-%j.out" : pattern;
    if (!p.startsWith("/")) {
      p = spec.getWorkDir() + (spec.getWorkDir().endsWith("/") ? "" : "/") + p;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < p.length(); i++) {
      char ch = p.charAt(i);
      if (ch != '%' || i + 1 >= p.length()) {
        sb.append(ch);
        continue;
      }
      char k = p.charAt(++i);
      switch (k) {
        case 'j', 'A' -> sb.append(jobId);
        case 'u' -> sb.append(user);
        case 'x' -> sb.append(spec.getName());
        case '%' -> sb.append('%');
        default -> sb.append('%').append(k);
      }
    }
    return sb.toString();
  }
}
