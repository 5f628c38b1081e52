package org.corral.protocol.container;

import java.util.List;
import java.util.Map;

/**
 * oci.conf's %-patterns, replaced as Slurm documents them: %% a '%', %@ the command and its
 * arguments (each single-quoted), %b the bundle's path, %e the environment file's, %j the job id,
 * %m the task's spool directory, %n the node's name, %r the root file system's path, %s the step id,
 * %t the task id, %u the user's name, %U the user's id. Every value is single-quoted for the shell
 * that runs the command, so a path with spaces or quotes stays one word and never runs as code.
 */
public final class OciPattern {
  private OciPattern() {}

  /** The command with its patterns replaced; an unknown %X stays as written. */
  public static String expand(String pattern, Map<Character, String> values, List<String> command) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%' || i + 1 == pattern.length()) {
        out.append(c);
        continue;
      }
      char k = pattern.charAt(++i);
      if (k == '%') {
        out.append('%');
      } else if (k == '@') {
        for (int a = 0; a < command.size(); a++) {
          out.append(a == 0 ? "" : " ").append(quote(command.get(a)));
        }
      } else if (values.containsKey(k)) {
        out.append(quote(values.get(k)));
      } else {
        out.append('%').append(k);
      }
    }
    return out.toString();
  }

  /** One shell word: single quotes, each ' written as '\''. */
  public static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
