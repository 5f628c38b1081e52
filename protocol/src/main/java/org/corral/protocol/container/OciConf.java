package org.corral.protocol.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * oci.conf beside slurm.conf, as Slurm reads it for --container: the runtime's commands
 * (RunTimeQuery, RunTimeCreate, RunTimeStart, RunTimeKill, RunTimeDelete, RunTimeRun) as
 * patterns ({@link OciPattern}), RunTimeEnvExclude (a regular expression of variables kept out of
 * the container), MountSpoolDir (where the task's spool directory appears inside), ContainerPath
 * (where the per-task bundles go), CreateEnvFile. Keys are case-insensitive, '#' starts a comment,
 * values may be double-quoted. Without the file, container support is off.
 */
public record OciConf(String query, String create, String start, String kill, String delete, String run,
    Optional<Pattern> envExclude, String mountSpoolDir, String containerPath, boolean createEnvFile) {

  public static final String FILE = "oci.conf";
  private static final List<String> KNOWN = List.of("runtimequery", "runtimecreate", "runtimestart", "runtimekill",
      "runtimedelete", "runtimerun", "runtimeenvexclude", "mountspooldir", "containerpath", "createenvfile",
      "debugflags", "ignorefileconfigjson", "disablehooks", "disablecleanup", "stdiodebug", "syslogdebug",
      "filedebug", "envexclude", "oci.conf");

  /** oci.conf in that directory; empty when there is none. */
  public static Optional<OciConf> load(Path confDir) throws IOException {
    Path file = confDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    return Optional.of(parse(Files.readAllLines(file), file.toString()));
  }

  /** Parses the file's lines; {@code where} names it in errors. */
  public static OciConf parse(List<String> lines, String where) throws IOException {
    Map<String, String> v = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = stripComment(lines.get(i)).strip();
      if (line.isEmpty()) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IOException(where + " line " + (i + 1) + ": expected KEY=VALUE: " + line);
      }
      String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      if (!KNOWN.contains(key)) {
        throw new IOException(where + " line " + (i + 1) + ": unknown key " + line.substring(0, eq).strip());
      }
      String value = line.substring(eq + 1).strip();
      if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
        value = value.substring(1, value.length() - 1);
      }
      v.put(key, value);
    }
    if (v.getOrDefault("runtimerun", "").isEmpty()
        && (v.getOrDefault("runtimecreate", "").isEmpty() || v.getOrDefault("runtimestart", "").isEmpty())) {
      throw new IOException(where + ": RunTimeRun, or RunTimeCreate and RunTimeStart, must be set");
    }
    Optional<Pattern> exclude = Optional.empty();
    String regex = v.getOrDefault("runtimeenvexclude", v.getOrDefault("envexclude", ""));
    if (!regex.isEmpty()) {
      try {
        exclude = Optional.of(Pattern.compile(regex));
      } catch (PatternSyntaxException e) {
        throw new IOException(where + ": RunTimeEnvExclude is not a regular expression: " + e.getDescription());
      }
    }
    String envFile = v.getOrDefault("createenvfile", "disabled").toLowerCase(Locale.ROOT);
    return new OciConf(v.getOrDefault("runtimequery", ""), v.getOrDefault("runtimecreate", ""),
        v.getOrDefault("runtimestart", ""), v.getOrDefault("runtimekill", ""), v.getOrDefault("runtimedelete", ""),
        v.getOrDefault("runtimerun", ""), exclude, v.getOrDefault("mountspooldir", "/var/run/slurm/"),
        v.getOrDefault("containerpath", ""), !List.of("disabled", "false", "").contains(envFile));
  }

  private static String stripComment(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '#' && !quoted) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  /** Whether a variable stays out of the container (RunTimeEnvExclude matches its whole name). */
  public boolean excludes(String name) {
    return envExclude.map(p -> p.matcher(name).matches()).orElse(false);
  }
}
