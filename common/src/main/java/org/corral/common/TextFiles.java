package org.corral.common;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Small text files (slurm.conf, /etc/passwd, /proc entries) read the way a user command can
 * afford on start-up: through java.io, which the JVM has set up already (NIO's file channel
 * costs about a millisecond on first use), and split into lines by hand (no regex, no stream).
 */
public final class TextFiles {
  private TextFiles() {}

  /** The whole file, as UTF-8. */
  public static String read(Path file) throws IOException {
    try (FileInputStream in = new FileInputStream(file.toFile())) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * The text's lines, split at LF or CRLF as {@code split("\\r?\\n", -1)} would (a final empty
   * line when the text ends with a line break).
   */
  public static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int from = 0;
    for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      int end = nl > from && text.charAt(nl - 1) == '\r' ? nl - 1 : nl;
      lines.add(text.substring(from, end));
      from = nl + 1;
    }
    lines.add(text.substring(from));
    return lines;
  }
}
