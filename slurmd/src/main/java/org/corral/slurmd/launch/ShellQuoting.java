package org.corral.slurmd.launch;

import java.util.List;

/** POSIX shell single-quoting: the quoted word reads back as exactly the original text. */
public final class ShellQuoting {
  private ShellQuoting() {}

  /** 'text', with each ' written as '\'' ; newlines and everything else stay literal. */
  public static String quote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }

  /** A `set --` line that makes the words the shell's positional parameters. */
  static String setPositionalParameters(List<String> words) {
    StringBuilder line = new StringBuilder("set --");
    for (String word : words) {
      line.append(' ').append(quote(word));
    }
    return line.append('\n').toString();
  }
}
