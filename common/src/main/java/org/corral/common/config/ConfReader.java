package org.corral.common.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.TextFiles;

/**
 * Reads Slurm-style configuration text (slurm.conf, gres.conf, cgroup.conf) into logical lines
 * of {@code key=value} pairs: {@code #} starts a comment ({@code \#} is a literal #, as is a # inside quotes), a trailing
 * {@code \} continues the line, values may be "quoted", spaces may surround {@code =}, and
 * {@code Include PATH} splices another file in place (PATH relative to the including file's
 * directory; a glob in its last component includes every match, in name order).
 */
public final class ConfReader {
  /** Deeper nesting than this is taken for an include cycle. */
  static final int MAX_INCLUDE_DEPTH = 16;

  private ConfReader() {}

  /** Reads a file and everything it includes. */
  public static List<ConfLine> read(Path file) throws ConfigException {
    List<ConfLine> out = new ArrayList<>();
    readInto(file, 0, out);
    return out;
  }

  /** Parses text as if it were the file {@code nominalPath} (which names it in messages and anchors includes). */
  public static List<ConfLine> parse(String text, Path nominalPath) throws ConfigException {
    List<ConfLine> out = new ArrayList<>();
    parseInto(text, nominalPath, 0, out);
    return out;
  }

  private static void readInto(Path file, int depth, List<ConfLine> out) throws ConfigException {
    String text;
    try {
      text = TextFiles.read(file);
    } catch (IOException e) {
      throw new ConfigException(file, 0, null, "cannot read: " + e.getMessage(), e);
    }
    parseInto(text, file, depth, out);
  }

  private static void parseInto(String text, Path file, int depth, List<ConfLine> out) throws ConfigException {
    List<String> physical = TextFiles.lines(text);
    StringBuilder logical = new StringBuilder();
    int startLine = 0;
    for (int i = 0; i < physical.size(); i++) {
      if (logical.isEmpty()) {
        startLine = i + 1;
      }
      String line = stripComment(physical.get(i));
      String trimmed = line.stripTrailing();
      if (trimmed.endsWith("\\") && i + 1 < physical.size()) {
        logical.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      logical.append(trimmed.endsWith("\\") ? trimmed.substring(0, trimmed.length() - 1) : line);
      String full = logical.toString().strip();
      logical.setLength(0);
      if (full.isEmpty()) {
        continue;
      }
      if (isInclude(full)) {
        include(file, startLine, unquote(full.substring(7).strip(), file, startLine), depth, out);
      } else {
        out.add(new ConfLine(file, startLine, pairs(full, file, startLine)));
      }
    }
  }

  private static String stripComment(String line) {
    StringBuilder sb = new StringBuilder(line.length());
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '#') {
        sb.append('#');
        i++;
      } else if (c == '#' && !quoted) {
        break;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isInclude(String line) {
    return line.length() > 8 && line.regionMatches(true, 0, "include", 0, 7)
        && Character.isWhitespace(line.charAt(7));
  }

  private static String unquote(String value, Path file, int line) throws ConfigException {
    if (value.startsWith("\"")) {
      if (value.length() < 2 || !value.endsWith("\"")) {
        throw new ConfigException(file, line, null, "unterminated quote in " + value);
      }
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  private static void include(Path from, int line, String target, int depth, List<ConfLine> out)
      throws ConfigException {
    if (depth >= MAX_INCLUDE_DEPTH) {
      throw new ConfigException(from, line, "Include", "includes nested more than " + MAX_INCLUDE_DEPTH
          + " deep (a cycle?) at " + target);
    }
    Path dir = from.toAbsolutePath().getParent();
    Path path = dir == null ? Path.of(target) : dir.resolve(target);
    String name = path.getFileName() == null ? "" : path.getFileName().toString();
    if (!name.matches(".*[*?\\[{].*")) {
      if (!Files.isRegularFile(path)) {
        throw new ConfigException(from, line, "Include", "included file " + path + " not found");
      }
      readInto(path, depth + 1, out);
      return;
    }
    List<Path> matches = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(path.getParent(), name)) {
      ds.forEach(p -> {
        if (Files.isRegularFile(p)) {
          matches.add(p);
        }
      });
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigException(from, line, "Include", "cannot list " + path + ": " + e.getMessage(), e);
    }
    matches.sort(null);
    for (Path p : matches) {
      readInto(p, depth + 1, out);
    }
  }

  /** Splits {@code k=v k2="v 2"} into pairs. */
  private static List<ConfPair> pairs(String s, Path file, int line) throws ConfigException {
    List<ConfPair> out = new ArrayList<>();
    int i = 0;
    int n = s.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      if (i >= n) {
        break;
      }
      int keyStart = i;
      while (i < n && s.charAt(i) != '=' && !Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      String key = s.substring(keyStart, i);
      int keyEnd = i;
      while (i < n && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      // "Key = value" is accepted; "Key= Other=x" keeps an empty value for Key.
      boolean spaced = i > keyEnd;
      if (i >= n || s.charAt(i) != '=' || key.isEmpty()) {
        throw new ConfigException(file, line, key.isEmpty() ? null : key,
            "expected key=value, got '" + (key.isEmpty() ? s.substring(keyStart) : key) + "'");
      }
      i++;
      while (spaced && i < n && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      String value;
      if (i < n && s.charAt(i) == '"') {
        int close = s.indexOf('"', i + 1);
        if (close < 0) {
          throw new ConfigException(file, line, key, "unterminated quote in value of " + key);
        }
        value = s.substring(i + 1, close);
        i = close + 1;
      } else {
        int start = i;
        while (i < n && !Character.isWhitespace(s.charAt(i))) {
          i++;
        }
        value = s.substring(start, i);
      }
      out.add(new ConfPair(key, value));
    }
    return out;
  }
}
