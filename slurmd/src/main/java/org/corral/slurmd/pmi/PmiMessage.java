package org.corral.slurmd.pmi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One PMI request or response: its command and its attributes, in the two wire forms a PMI_FD
 * carries. PMI-1 (MPICH's simple PMI): "cmd=put kvsname=K key=k value=v" lines, attributes
 * split at spaces (a value, always last, keeps its spaces). PMI-2: a 6-character
 * left-justified decimal length, then "cmd=kvs-put;key=k;value=v;" with ";;" for a ';' inside.
 */
public record PmiMessage(String command, Map<String, String> attributes) {

  public PmiMessage {
    attributes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /** The attribute, or {@code otherwise}. */
  public String get(String key, String otherwise) {
    return attributes.getOrDefault(key, otherwise);
  }

  /** A PMI-1 line without its newline; the command is "cmd" or "mcmd" (spawn's). */
  public static PmiMessage parsePmi1(String line) {
    Map<String, String> attrs = new LinkedHashMap<>();
    String rest = line.strip();
    String command = "";
    while (!rest.isEmpty()) {
      int space = rest.indexOf(' ');
      String word = space < 0 ? rest : rest.substring(0, space);
      int eq = word.indexOf('=');
      String key = eq < 0 ? word : word.substring(0, eq);
      if (key.equals("value") && eq >= 0) { // a value keeps its spaces
        attrs.put(key, rest.substring(eq + 1));
        break;
      }
      String value = eq < 0 ? "" : word.substring(eq + 1);
      if ((key.equals("cmd") || key.equals("mcmd")) && command.isEmpty()) {
        command = value;
      } else {
        attrs.put(key, value);
      }
      rest = space < 0 ? "" : rest.substring(space + 1).stripLeading();
    }
    return new PmiMessage(command, attrs);
  }

  /** A PMI-2 message body (after the length); null when it is malformed. */
  public static PmiMessage parsePmi2(String body) {
    Map<String, String> attrs = new LinkedHashMap<>();
    StringBuilder token = new StringBuilder();
    String key = null;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == ';' && i + 1 < body.length() && body.charAt(i + 1) == ';' && key != null) {
        token.append(';');
        i++;
      } else if (c == ';') {
        if (key == null) {
          return null;
        }
        attrs.put(key, token.toString());
        key = null;
        token.setLength(0);
      } else if (c == '=' && key == null) {
        key = token.toString();
        token.setLength(0);
      } else {
        token.append(c);
      }
    }
    if (key != null) {
      attrs.put(key, token.toString());
    } else if (!token.isEmpty()) {
      return null;
    }
    String command = attrs.remove("cmd");
    return command == null ? null : new PmiMessage(command, attrs);
  }

  /** "cmd=NAME k=v ...\n". */
  public String toPmi1() {
    StringBuilder s = new StringBuilder("cmd=").append(command);
    attributes.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
    return s.append('\n').toString();
  }

  /** The 6-character length and "cmd=NAME;k=v;..." with ';' doubled inside values. */
  public String toPmi2() {
    StringBuilder s = new StringBuilder("cmd=").append(command).append(';');
    attributes.forEach((k, v) -> s.append(k).append('=').append(v.replace(";", ";;")).append(';'));
    return String.format("%-6d", s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length) + s;
  }
}
