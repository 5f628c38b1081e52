package org.corral.slurmd.pmi;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One task's PMI stream (its PMI_FD): PMI-1 lines until the task asks for version 2 in its init,
 * PMI-2 messages after that, with the answers Slurm 22.05's mpi/pmi2 gives (recorded on the
 * reference). Spawn and name publishing are refused with an error code, never left unanswered.
 */
public final class PmiConnection {
  /** Longest PMI-1 line and PMI-2 message taken; a longer one ends the connection. */
  static final int MAX_LINE = 8192;
  static final int MAX_MESSAGE = 64 * 1024;

  /** What the connection reports to the node step. */
  public interface Events {
    /** The task called abort: the step is to end. */
    void abort(int task, int exitCode, String message);

    /** A line for the task's stderr, as slurmstepd writes its errors there. */
    void error(int task, String line);
  }

  private final int task;
  private final PmiJob job;
  private final PmiSpace space;
  private final Events events;
  private final InputStream in;
  private final OutputStream out;
  private boolean finalized;

  PmiConnection(int task, PmiJob job, PmiSpace space, Events events, InputStream in, OutputStream out) {
    this.task = task;
    this.job = job;
    this.space = space;
    this.events = events;
    this.in = in;
    this.out = out;
  }

  /** Serves the task until it finalizes or its stream ends. */
  void serve() throws IOException, InterruptedException {
    String line;
    while (!finalized && (line = readLine()) != null) {
      PmiMessage m = PmiMessage.parsePmi1(line);
      if (m.command().equals("init") && m.get("pmi_version", "1").equals("2")) {
        send1(reply("response_to_init", "pmi_version", "2", "pmi_subversion", "0"));
        servePmi2();
        return;
      }
      pmi1(m, line);
    }
  }

  private void pmi1(PmiMessage m, String line) throws IOException, InterruptedException {
    switch (m.command()) {
      case "init" -> send1(reply("response_to_init", "pmi_version", "1", "pmi_subversion", "1"));
      case "get_maxes" -> send1(reply("maxes", "kvsname_max", "256", "keylen_max", Integer.toString(PmiSpace.KEY_MAX),
          "vallen_max", Integer.toString(PmiSpace.VALUE_MAX)));
      case "get_universe_size" -> send1(reply("universe_size", "size", Integer.toString(job.size())));
      case "get_appnum" -> send1(reply("appnum", "appnum", Integer.toString(PmiJob.APPNUM)));
      case "get_my_kvsname" -> send1(reply("my_kvsname", "kvsname", job.kvsName()));
      case "put" -> send1(space.put(m.get("key", ""), m.get("value", ""))
          ? reply("put_result") : failed("put_result", "key or value too long"));
      case "barrier_in" -> {
        if (space.fence()) {
          send1(reply("barrier_out"));
        }
      }
      case "get" -> {
        var value = lookUp(m.get("key", ""));
        send1(value == null ? new PmiMessage("get_result", Map.of("rc", "1"))
            : reply("get_result", "value", value));
      }
      case "finalize" -> {
        send1(reply("finalize_ack"));
        finalized = true;
      }
      case "abort" -> events.abort(task, intOr(m.get("exitcode", "1"), 1), "");
      case "spawn" -> { // "mcmd=spawn": its lines go to "endcmd"
        String more;
        while ((more = readLine()) != null && !more.strip().equals("endcmd")) {
          // the spawn request's lines: not served
        }
        send1(failed("spawn_result", "spawn is not supported by Corral"));
      }
      case "publish_name" -> send1(failed("publish_result", "name publishing is not supported by Corral"));
      case "unpublish_name" -> send1(failed("unpublish_result", "name publishing is not supported by Corral"));
      case "lookup_name" -> send1(failed("lookup_result", "name publishing is not supported by Corral"));
      default -> events.error(task, "slurmstepd-" + job.nodeName()
          + ": error: mpi/pmi2: invalid pmi1 command received: '" + line.strip().replaceFirst("^m?cmd=", "") + "'");
    }
  }

  private void servePmi2() throws IOException, InterruptedException {
    String body;
    while (!finalized && (body = readMessage()) != null) {
      PmiMessage m = PmiMessage.parsePmi2(body);
      if (m == null) {
        events.error(task, "slurmstepd-" + job.nodeName() + ": error: mpi/pmi2: invalid pmi2 request: '" + body + "'");
        return;
      }
      pmi2(m);
    }
  }

  private void pmi2(PmiMessage m) throws IOException, InterruptedException {
    String response = m.command() + "-response";
    switch (m.command()) {
      case "fullinit" -> send2(reply(response, "pmi-version", "2", "pmi-subversion", "0", "rank",
          Integer.toString(task), "size", Integer.toString(job.size()), "appnum", Integer.toString(PmiJob.APPNUM),
          "debugged", "FALSE", "pmiverbose", "FALSE"));
      case "job-getid" -> send2(reply(response, "jobid", job.kvsName()));
      case "kvs-put" -> send2(space.put(m.get("key", ""), m.get("value", ""))
          ? reply(response) : failed(response, "key or value too long"));
      case "kvs-get" -> {
        String value = lookUp(m.get("key", ""));
        send2(value == null ? reply(response, "found", "FALSE") : reply(response, "found", "TRUE", "value", value));
      }
      case "kvs-fence" -> {
        if (space.fence()) {
          send2(reply(response));
        }
      }
      case "info-putnodeattr" -> send2(space.putNodeAttribute(m.get("key", ""), m.get("value", ""))
          ? reply(response) : failed(response, "key or value too long"));
      case "info-getnodeattr" -> {
        var value = space.nodeAttribute(m.get("key", ""), m.get("wait", "FALSE").equalsIgnoreCase("TRUE"));
        send2(value.isEmpty() ? reply(response, "found", "FALSE") : reply(response, "found", "TRUE", "value", value.get()));
      }
      case "info-getjobattr" -> {
        String value = jobAttribute(m.get("key", ""));
        send2(value == null ? reply(response, "found", "FALSE") : reply(response, "found", "TRUE", "value", value));
      }
      case "finalize" -> {
        send2(reply(response));
        finalized = true;
      }
      case "abort" -> events.abort(task, 1, m.get("msg", ""));
      case "spawn" -> send2(failed(response, "spawn is not supported by Corral"));
      case "name-publish", "name-unpublish", "name-lookup" ->
          send2(failed(response, "name publishing is not supported by Corral"));
      case "job-connect", "job-disconnect" -> send2(failed(response, "connecting jobs is not supported by Corral"));
      default -> {
        events.error(task, "slurmstepd-" + job.nodeName() + ": error: mpi/pmi2: invalid pmi2 command received: '"
            + m.command() + "'");
        send2(failed(response, "unknown command"));
      }
    }
  }

  /** A pair of the space, or one of the step's attributes that PMI-1 clients get as pairs. */
  private String lookUp(String key) {
    return space.get(key).orElseGet(() -> key.equals("PMI_process_mapping") ? job.processMapping() : null);
  }

  private String jobAttribute(String key) {
    return switch (key) {
      case "PMI_process_mapping" -> job.processMapping();
      case "universeSize" -> Integer.toString(job.size());
      default -> null;
    };
  }

  private static PmiMessage reply(String command, String... keysAndValues) {
    Map<String, String> attrs = new LinkedHashMap<>();
    attrs.put("rc", "0");
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      attrs.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return new PmiMessage(command, attrs);
  }

  private static PmiMessage failed(String command, String why) {
    Map<String, String> attrs = new LinkedHashMap<>();
    attrs.put("rc", "-1");
    attrs.put("errmsg", why);
    return new PmiMessage(command, attrs);
  }

  private static int intOr(String text, int otherwise) {
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  private void send1(PmiMessage m) throws IOException {
    out.write(m.toPmi1().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private void send2(PmiMessage m) throws IOException {
    out.write(m.toPmi2().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** A PMI-1 line without its newline; null at the end of the stream. */
  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      if (line.size() >= MAX_LINE) {
        throw new IOException("PMI-1 line longer than " + MAX_LINE + " bytes");
      }
      line.write(c);
    }
    return c == -1 && line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
  }

  /** A PMI-2 message body; null at the end of the stream. */
  private String readMessage() throws IOException {
    byte[] length = in.readNBytes(6);
    if (length.length < 6) {
      return null;
    }
    int size;
    try {
      size = Integer.parseInt(new String(length, StandardCharsets.US_ASCII).strip());
    } catch (NumberFormatException e) {
      throw new IOException("PMI-2 message without a length");
    }
    if (size < 0 || size > MAX_MESSAGE) {
      throw new IOException("PMI-2 message of " + size + " bytes refused");
    }
    byte[] body = in.readNBytes(size);
    if (body.length < size) {
      return null;
    }
    return new String(body, StandardCharsets.UTF_8);
  }
}
