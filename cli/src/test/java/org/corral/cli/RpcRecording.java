package org.corral.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * A user command whose conversation with the controller and slurmdbd is kept, so that a golden
 * test can replay it later without a cluster. {@code main} runs like {@link Main} (the live
 * recording, golden/live/record.sh, runs Corral's commands through it) and appends every
 * exchange to the file named by CORRAL_RPC_LOG: a byte (0 controller, 1 slurmdbd), then the
 * request and the response, each length-delimited. {@link #replay} answers from such a file.
 */
public final class RpcRecording {
  private RpcRecording() {}

  public static void main(String[] argv) throws IOException {
    String name = argv[0];
    List<String> args = Arrays.asList(argv).subList(1, argv.length);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
        StandardCharsets.UTF_8);
    String log = System.getenv("CORRAL_RPC_LOG");
    int rc;
    try (OutputStream file = new BufferedOutputStream(new FileOutputStream(log, true))) {
      Cli cli = new Cli(name, out, err, System.getenv(), Clock.systemDefaultZone(),
          recorded(Main.controller(System.getenv(), err, name), 0, file), recorded(Main.accounting(System.getenv(), err, name), 1, file));
      try {
        rc = Main.command(name, Caller.thisProcess()).run(args, cli);
      } catch (RuntimeException e) {
        rc = 1;
      }
      out.flush();
    }
    System.exit(rc);
  }

  private static Supplier<RpcChannel> recorded(Supplier<RpcChannel> real, int tag, OutputStream log) {
    return () -> {
      RpcChannel channel = real.get();
      return request -> {
        Response response = channel.call(request);
        synchronized (log) {
          log.write(tag);
          request.writeDelimitedTo(log);
          response.writeDelimitedTo(log);
          log.flush();
        }
        return response;
      };
    };
  }

  /** One recorded exchange. */
  public record Exchange(int tag, Request request, Response response) {}

  /** The exchanges of a recording, in order. */
  public static List<Exchange> read(Path file) throws IOException {
    List<Exchange> all = new ArrayList<>();
    if (!Files.exists(file)) {
      return all;
    }
    try (InputStream in = Files.newInputStream(file)) {
      int tag;
      while ((tag = in.read()) >= 0) {
        all.add(new Exchange(tag, Request.parseDelimitedFrom(in), Response.parseDelimitedFrom(in)));
      }
    }
    return all;
  }

  /**
   * A channel answering channel {@code tag}'s requests with the recorded responses, in order;
   * a request of another kind than the recorded one fails (the command changed: re-record).
   */
  public static Supplier<RpcChannel> replay(List<Exchange> recorded, int tag) {
    List<Exchange> mine = recorded.stream().filter(e -> e.tag() == tag).toList();
    int[] next = {0};
    RpcChannel channel = request -> {
      if (next[0] >= mine.size()) {
        throw new IOException("no recorded answer for " + request.getBodyCase());
      }
      Exchange e = mine.get(next[0]++);
      if (e.request().getBodyCase() != request.getBodyCase()) {
        throw new IOException("recorded " + e.request().getBodyCase() + ", asked "
            + request.getBodyCase());
      }
      return e.response();
    };
    return () -> channel;
  }
}
