package org.corral.protocol.audit;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import org.corral.common.PrivateFiles;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.JsonWriter;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * The audit trail: one JSON line per state-changing request, written when it has been answered:
 * when, which daemon, who (user and uid, and through which daemon when slurmrestd sent it for
 * them), from which host, what (action and target, {@link AuditSubject}), and the result
 * ({@code ok}, {@code refused} for a permission refusal, {@code failed} for any other error, with
 * Slurm's message). The file is the daemon's alone (0600) and appended to, line by line, so a
 * log shipper can follow it.
 */
public final class AuditLog implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(AuditLog.class.getName());
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX")
      .withZone(ZoneOffset.UTC);
  private static final Set<Integer> REFUSALS = Set.of(SlurmError.ACCESS_DENIED.code(),
      SlurmError.USER_ID_MISSING.code(), SlurmError.AUTH_CRED_INVALID.code(),
      SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code());

  /** Writes nothing (no audit log configured). */
  public static final AuditLog NONE = new AuditLog(null, null, null, Clock.systemUTC(), null);

  private final BufferedWriter out;
  private final String daemon;
  private final String localHost;
  private final Clock clock;
  private final Path file;

  private AuditLog(BufferedWriter out, String daemon, String localHost, Clock clock, Path file) {
    this.out = out;
    this.daemon = daemon;
    this.localHost = localHost;
    this.clock = clock;
    this.file = file;
  }

  /** Opens (creates 0600, or closes to others) and appends to {@code file}. */
  public static AuditLog open(Path file, String daemon, String localHost, Clock clock) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    PrivateFiles.ensurePrivate(file);
    BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    return new AuditLog(w, daemon, localHost, clock, file);
  }

  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * Records {@code req} answered with {@code response} when it changes state.
   *
   * @param remote the connection's peer address ("unix socket client" for a local one)
   * @param via the daemon that sent it for {@code peer} (slurmrestd), or null
   */
  public void record(Peer peer, String remote, String via, Request req, Response response) {
    if (out == null) {
      return;
    }
    Optional<String[]> subject = AuditSubject.of(req, response);
    if (subject.isEmpty()) {
      return;
    }
    JsonObject line = new JsonObject();
    line.put("time", TIME.format(Instant.now(clock)));
    line.put("daemon", daemon);
    line.put("user", peer.userName() != null ? peer.userName()
        : peer.isDaemon() ? peer.daemon() : Integer.toString(peer.uid()));
    line.put("uid", (long) peer.uid());
    line.put("host", host(remote));
    if (via != null) {
      line.put("via", via);
    }
    line.put("action", subject.get()[0]);
    line.put("what", subject.get()[1]);
    int error = firstError(response);
    line.put("result", error == 0 ? "ok" : REFUSALS.contains(error) ? "refused" : "failed");
    if (error != 0) {
      line.put("error", errorText(response, error));
    }
    write(JsonWriter.compact(line));
  }

  /** The top-level error, else the first per-job one (a cancel of several jobs answers per job). */
  private static int firstError(Response r) {
    if (r.getErrorCode() != 0) {
      return r.getErrorCode();
    }
    for (JobResult j : r.getJobResults().getResultsList()) {
      if (j.getErrorCode() != 0) {
        return j.getErrorCode();
      }
    }
    return 0;
  }

  private static String errorText(Response r, int code) {
    if (r.getErrorCode() != 0) {
      return r.getErrorMessage().isEmpty() ? SlurmError.messageFor(code) : r.getErrorMessage();
    }
    for (JobResult j : r.getJobResults().getResultsList()) {
      if (j.getErrorCode() != 0) {
        return "JobId=" + Integer.toUnsignedString(j.getJobId()) + ": "
            + (j.getErrorMessage().isEmpty() ? SlurmError.messageFor(code) : j.getErrorMessage());
      }
    }
    return SlurmError.messageFor(code);
  }

  /** This host for a local client; the address alone (no port) for a TCP one. */
  private String host(String remote) {
    if (remote == null || !remote.contains(":")) {
      return localHost;
    }
    String h = remote.startsWith("/") ? remote.substring(1) : remote;
    return h.substring(0, h.lastIndexOf(':'));
  }

  private synchronized void write(String json) {
    try {
      out.write(json);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      LOG.log(Level.ERROR, "cannot write the audit log: " + e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "closing the audit log: " + e.getMessage());
      }
    }
  }
}
