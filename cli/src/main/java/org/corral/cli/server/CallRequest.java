package org.corral.cli.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the front end hands over for one command: the program (sbatch, squeue, ...), its
 * arguments and environment, working directory, process id and whether stdin is a terminal.
 * On the wire: NUL-terminated strings, program, cwd, pid, umask (octal), three 0/1 flags for
 * isatty(0), isatty(1), isatty(2), the argument count, the arguments, then NAME=VALUE entries.
 */
record CallRequest(String program, Path cwd, long pid, String umask, boolean stdinTerminal,
    boolean stdoutTerminal, boolean stderrTerminal, List<String> args, Map<String, String> env) {

  static CallRequest parse(byte[] payload) {
    List<String> f = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < payload.length; i++) {
      if (payload[i] == 0) {
        f.add(new String(payload, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start != payload.length || f.size() < 6) {
      throw new IllegalArgumentException("malformed call");
    }
    String ttys = f.get(4);
    int argc = Integer.parseInt(f.get(5));
    if (argc < 0 || 6 + argc > f.size()) {
      throw new IllegalArgumentException("malformed call: " + argc + " arguments");
    }
    Path cwd = Path.of(f.get(1));
    if (!cwd.isAbsolute() || ttys.length() != 3) {
      throw new IllegalArgumentException("malformed call");
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (String e : f.subList(6 + argc, f.size())) {
      int eq = e.indexOf('=');
      if (eq > 0) {
        env.putIfAbsent(e.substring(0, eq), e.substring(eq + 1));
      }
    }
    return new CallRequest(f.get(0), cwd, Long.parseLong(f.get(2)), f.get(3), ttys.charAt(0) == '1',
        ttys.charAt(1) == '1', ttys.charAt(2) == '1', List.copyOf(f.subList(6, 6 + argc)),
        Collections.unmodifiableMap(env));
  }
}
