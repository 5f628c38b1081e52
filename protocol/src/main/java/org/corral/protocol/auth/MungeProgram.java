package org.corral.protocol.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.AuthException;

/**
 * The host's MUNGE daemon, reached through its own {@code munge} and {@code unmunge} programs
 * (Debian's {@code munge} package). munged does the cryptography, the TTL and its own replay
 * check; we only run the programs and read what they print. The programs rather than libmunge
 * through the foreign-function API: Corral's Java 21 floor has that API only as a preview, and
 * a credential costs about 7 ms either way next to a command's start-up (docs/adr/0005).
 */
public final class MungeProgram {
  /** Slurm's default: {@code AuthInfo=socket=...} overrides it. */
  public static final String DEFAULT_SOCKET = "/run/munge/munge.socket.2";
  private static final long RUN_LIMIT_S = 10;
  /**
   * Program runs at once in this process: a daemon flooded with bogus credentials over many
   * connections queues them here instead of forking a process for each.
   */
  private static final Semaphore RUNNING = new Semaphore(16);
  /** libmunge's munge_err_t values the programs exit with that we name. */
  private static final Map<Integer, String> STATUS = Map.of(
      6, "cannot reach munged (is it running?)",
      8, "credential is malformed",
      11, "credential is invalid (forged, or encoded with another MUNGE key)",
      14, "credential is invalid (forged, or encoded with another MUNGE key)",
      15, "credential has expired",
      16, "credential was encoded in the future (clock skew)",
      17, "credential was replayed",
      18, "client is not authorized to decode the credential");

  /** What unmunge vouches for: who encoded the credential, when, for how long, and its payload. */
  public record Decoded(int uid, int gid, long encodeTimeS, int ttlS, String payload) {}

  private final Path socket;
  private final String mungeBin;
  private final String unmungeBin;

  public MungeProgram(Path socket) {
    this(socket, find("munge"), find("unmunge"));
  }

  MungeProgram(Path socket, String mungeBin, String unmungeBin) {
    this.socket = Objects.requireNonNull(socket, "socket");
    this.mungeBin = mungeBin;
    this.unmungeBin = unmungeBin;
  }

  /** The socket named by AuthInfo ({@code socket=PATH}, Slurm's syntax), else MUNGE's default. */
  public static Path socketFrom(String authInfo) {
    if (authInfo != null) {
      for (String part : authInfo.split(",")) {
        String p = part.trim();
        if (p.regionMatches(true, 0, "socket=", 0, 7) && p.length() > 7) {
          return Path.of(p.substring(7));
        }
      }
    }
    return Path.of(DEFAULT_SOCKET);
  }

  public Path socket() {
    return socket;
  }

  /** A credential for this process's user carrying {@code payload} (printable ASCII). */
  public String encode(String payload, int ttlS) throws AuthException {
    Result r = run(List.of(mungeBin, "-S", socket.toString(), "-s", payload, "-t",
        Integer.toString(ttlS)), null);
    if (r.status != 0) {
      throw failure("munge", r);
    }
    String credential = r.out.strip();
    if (!credential.startsWith("MUNGE:")) {
      throw new AuthException("munge printed no credential");
    }
    return credential;
  }

  /** Decodes a credential through munged, which checks its MAC, TTL and replay. */
  public Decoded decode(String credential) throws AuthException {
    if (credential.isEmpty() || credential.length() > 4096 || !credential.startsWith("MUNGE:")
        || !credential.chars().allMatch(c -> c > ' ' && c < 127)) {
      throw new AuthException("credential is malformed");
    }
    Result r = run(List.of(unmungeBin, "-S", socket.toString(), "-N", "-k",
        "STATUS,UID,GID,ENCODE_TIME,TTL"), credential);
    if (r.status != 0) {
      throw failure("unmunge", r);
    }
    int blank = r.out.indexOf("\n\n");
    if (blank < 0) {
      throw new AuthException("unmunge printed no payload");
    }
    Map<String, String> meta = new HashMap<>();
    for (String line : r.out.substring(0, blank).split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        meta.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
      }
    }
    try {
      return new Decoded(Integer.parseInt(meta.get("UID")), Integer.parseInt(meta.get("GID")),
          Long.parseLong(meta.get("ENCODE_TIME")), Integer.parseInt(meta.get("TTL")),
          r.out.substring(blank + 2));
    } catch (RuntimeException e) {
      throw new AuthException("unmunge printed unexpected metadata: " + meta);
    }
  }

  private record Result(int status, String out, String err) {}

  private static Result run(List<String> command, String input) throws AuthException {
    try {
      RUNNING.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthException(command.get(0) + " was interrupted");
    }
    try {
      return runNow(command, input);
    } finally {
      RUNNING.release();
    }
  }

  private static Result runNow(List<String> command, String input) throws AuthException {
    Process p;
    try {
      p = new ProcessBuilder(new ArrayList<>(command)).start();
    } catch (IOException e) {
      throw new AuthException("cannot run " + command.get(0) + " (is the munge package"
          + " installed?): " + e.getMessage());
    }
    try {
      try (var stdin = p.getOutputStream()) {
        if (input != null) {
          stdin.write(input.getBytes(StandardCharsets.US_ASCII));
        }
      }
      String out = readSmall(p.getInputStream());
      String err = readSmall(p.getErrorStream());
      if (!p.waitFor(RUN_LIMIT_S, TimeUnit.SECONDS)) {
        throw new AuthException(command.get(0) + " did not finish within " + RUN_LIMIT_S + " s");
      }
      return new Result(p.exitValue(), out, err);
    } catch (IOException e) {
      throw new AuthException(command.get(0) + " failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthException(command.get(0) + " was interrupted");
    } finally {
      p.destroy();
    }
  }

  /** The programs print a few hundred bytes; more is not MUNGE talking. */
  private static String readSmall(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(64 * 1024);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static AuthException failure(String program, Result r) {
    String known = STATUS.get(r.status);
    String said = r.err.strip();
    return new AuthException("MUNGE " + (known != null ? known : "error " + r.status)
        + (said.isEmpty() ? "" : " (" + program + ": " + said.replaceFirst("^\\S+: Error: ", "")
        + ")"));
  }

  private static String find(String name) {
    for (String dir : new String[] {"/usr/bin", "/usr/local/bin", "/bin"}) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return name;
  }
}
