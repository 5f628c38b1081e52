package org.corral.slurmd.launch;

import org.corral.protocol.msg.JobInfo;

/**
 * sbatch's filename patterns: %j %A (job id), %a (array index; 4294967294 outside arrays, as
 * Slurm prints), %x (job name), %u (user), %N (node), %n (node index, 0), %t (task, 0), %%;
 * relative paths sit in the work directory.
 */
final class OutputPattern {
  static final String NO_ARRAY_INDEX = "4294967294";

  private OutputPattern() {}

  static String resolve(String pattern, JobInfo job, String node) {
    String p = pattern.isEmpty() ? "slurm-%j.out" : pattern;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < p.length(); i++) {
      char c = p.charAt(i);
      if (c != '%' || i + 1 >= p.length()) {
        sb.append(c);
        continue;
      }
      char k = p.charAt(++i);
      switch (k) {
        case 'j', 'A' -> sb.append(job.getJobId());
        case 'a' -> sb.append(NO_ARRAY_INDEX);
        case 'x' -> sb.append(job.getName());
        case 'u' -> sb.append(job.getUserName());
        case 'N' -> sb.append(node);
        case 'n', 't', 's' -> sb.append('0');
        case '%' -> sb.append('%');
        default -> sb.append('%').append(k);
      }
    }
    String path = sb.toString();
    if (path.startsWith("/") || path.equals("/dev/null")) {
      return path;
    }
    String wd = job.getWorkDir();
    return wd + (wd.endsWith("/") ? "" : "/") + path;
  }
}
