package org.corral.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.corral.common.TextFiles;

/**
 * Maps user and group ids to names and back: /etc/passwd and /etc/group first (re-read when they
 * change), then {@code getent} for directory services such as LDAP or SSSD. getent answers,
 * found or not, are remembered for a short while so a burst of requests costs one process.
 */
public final class UserDirectory {
  private static final Duration GETENT_CACHE = Duration.ofSeconds(30);
  private static final long GETENT_TIMEOUT_MS = 3000;
  // The wall clock read directly: Clock.systemUTC() sets up the time zone classes, which every
  // user command would pay for at start-up.
  private static final UserDirectory SYSTEM = new UserDirectory(Path.of("/etc/passwd"),
      Path.of("/etc/group"), List.of("getent"), System::currentTimeMillis);

  private final ColonFile passwd;
  private final ColonFile group;
  private final List<String> getent;
  private final LongSupplier nowMs;
  private final ConcurrentHashMap<List<String>, Cached> getentAnswers = new ConcurrentHashMap<>();

  private record Cached(Optional<String[]> fields, long expiresAtMs) {}

  /**
   * A directory over the given files; {@code getent} is the command prefix to ask directory
   * services (empty: files only).
   */
  public UserDirectory(Path passwdFile, Path groupFile, List<String> getent, Clock clock) {
    this(passwdFile, groupFile, getent, clock::millis);
  }

  private UserDirectory(Path passwdFile, Path groupFile, List<String> getent, LongSupplier nowMs) {
    this.passwd = new ColonFile(passwdFile);
    this.group = new ColonFile(groupFile);
    this.getent = List.copyOf(getent);
    this.nowMs = nowMs;
  }

  /** The host's users and groups. */
  public static UserDirectory system() {
    return SYSTEM;
  }

  public Optional<String> userName(int uid) {
    return lookup(passwd, "passwd", 2, Integer.toString(uid)).map(f -> f[0]);
  }

  public OptionalInt uid(String name) {
    return idField(lookup(passwd, "passwd", 0, name), 2);
  }

  public Optional<String> groupName(int gid) {
    return lookup(group, "group", 2, Integer.toString(gid)).map(f -> f[0]);
  }

  public OptionalInt gid(String name) {
    return idField(lookup(group, "group", 0, name), 2);
  }

  /**
   * Whether {@code user} (whose login group is {@code loginGid}) belongs to group {@code name}:
   * it is their login group or they are listed among its members.
   */
  public boolean isMember(String user, int loginGid, String name) {
    Optional<String[]> g = lookup(group, "group", 0, name);
    if (g.isEmpty()) {
      return false;
    }
    OptionalInt gid = parseId(g.get()[2]);
    if (gid.isPresent() && gid.getAsInt() == loginGid) {
      return true;
    }
    return g.get().length > 3 && java.util.Arrays.asList(g.get()[3].split(",")).contains(user);
  }

  /** The gid of the user's login group (the fourth passwd field). */
  public OptionalInt primaryGid(String user) {
    return idField(lookup(passwd, "passwd", 0, user), 3);
  }

  private Optional<String[]> lookup(ColonFile file, String database, int keyField, String key) {
    if (!isSafeKey(key)) {
      return Optional.empty();
    }
    Optional<String[]> local = file.find(keyField, key);
    return local.isPresent() ? local : askGetent(database, key);
  }

  /** Names and ids never contain separators or start with '-' (getent would read an option). */
  private static boolean isSafeKey(String key) {
    return key != null && !key.isEmpty() && !key.startsWith("-") && key.length() <= 256
        && key.chars().noneMatch(c -> c == ':' || c == '\n' || c == 0 || Character.isWhitespace(c));
  }

  private Optional<String[]> askGetent(String database, String key) {
    if (getent.isEmpty()) {
      return Optional.empty();
    }
    long now = nowMs.getAsLong();
    List<String> question = List.of(database, key);
    Cached cached = getentAnswers.get(question);
    if (cached != null && cached.expiresAtMs > now) {
      return cached.fields;
    }
    Optional<String[]> answer = runGetent(database, key);
    getentAnswers.put(question, new Cached(answer, now + GETENT_CACHE.toMillis()));
    return answer;
  }

  private Optional<String[]> runGetent(String database, String key) {
    List<String> command = new ArrayList<>(getent);
    command.add(database);
    command.add(key);
    try {
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = p.getInputStream().readNBytes(64 * 1024);
      if (!p.waitFor(GETENT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      if (p.exitValue() != 0) {
        return Optional.empty();
      }
      String line = new String(out, StandardCharsets.UTF_8).lines().findFirst().orElse("");
      String[] fields = line.split(":", -1);
      return fields.length >= 4 ? Optional.of(fields) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static OptionalInt idField(Optional<String[]> fields, int index) {
    return fields.map(f -> parseId(f[index])).orElse(OptionalInt.empty());
  }

  private static OptionalInt parseId(String s) {
    try {
      int id = Integer.parseInt(s);
      return id >= 0 ? OptionalInt.of(id) : OptionalInt.empty();
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** A colon-separated database file, parsed again whenever its size or mtime changes. */
  private static final class ColonFile {
    private final Path path;
    private volatile Snapshot snapshot = new Snapshot(null, -1, List.of());

    private record Snapshot(FileTime mtime, long size,
        List<String[]> rows) {}

    ColonFile(Path path) {
      this.path = path;
    }

    Optional<String[]> find(int keyField, String key) {
      return rows().stream()
          .filter(f -> f[keyField].equals(key))
          .findFirst();
    }

    private List<String[]> rows() {
      try {
        var attrs = Files.readAttributes(path,
            BasicFileAttributes.class);
        Snapshot s = snapshot;
        if (attrs.lastModifiedTime().equals(s.mtime) && attrs.size() == s.size) {
          return s.rows;
        }
        List<String[]> rows = TextFiles.lines(TextFiles.read(path))
            .stream()
            .filter(line -> !line.isBlank() && !line.startsWith("#"))
            .map(line -> line.split(":", -1))
            .filter(f -> f.length >= 4)
            .toList();
        snapshot = new Snapshot(attrs.lastModifiedTime(), attrs.size(), rows);
        return rows;
      } catch (IOException e) {
        return List.of();
      }
    }
  }
}
