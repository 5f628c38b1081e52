package org.corral.cli.sbcast;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;
import com.google.protobuf.ByteString;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastReply;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * sbcast SOURCE DEST: copies a file to every node of a running job, as Slurm 22.05's does. The
 * file goes to the controller block by block (at most 4 MiB each); the controller checks the job
 * and forwards each block to the job's nodes, whose daemons write it with the job user's rights.
 * Messages and exit codes are Slurm's: a node's failure prints
 * {@code REQUEST_FILE_BCAST(n1): File exists} and exits with its errno, a job that cannot be
 * used {@code Slurm job 7 lookup error: Invalid job id specified} (exit 255).
 */
public final class SbcastCommand implements CliCommand {
  /**
   * The largest block sent (node daemons accept no more; Slurm rounds -s too): each block costs
   * a round trip and a short process on each node, so fewer, larger blocks copy faster.
   */
  static final int MAX_BLOCK = 4 << 20;
  private static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss yyyy", Locale.ROOT);

  @Override
  public int run(List<String> args, Cli cli) {
    Getopt.Result parsed;
    try {
      parsed = SbcastOptions.GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"sbcast --help\" for more information");
      return 1;
    }
    for (Getopt.Opt o : parsed.options()) {
      switch (o.key()) {
        case "help" -> {
          return HelpText.info(cli, SbcastCommand.class, "help", null);
        }
        case "usage" -> {
          return HelpText.info(cli, SbcastCommand.class, "usage", null);
        }
        case "V" -> {
          return HelpText.info(cli, SbcastCommand.class, "V", null);
        }
        default -> { }
      }
    }
    SbcastOptions opts = new SbcastOptions();
    BcastParameters site = BcastParameters.of(siteParameters(cli));
    if (site.compression() != null) {
      opts.compression(site.compression(), cli);
    }
    opts.fromEnvironment(cli.env(), cli);
    for (Getopt.Opt o : parsed.options()) {
      opts.apply(o, cli);
    }
    if (parsed.operands().size() != 2) {
      cli.err().println("Need two file names, have " + parsed.operands().size() + " names");
      cli.err().println("Try \"sbcast --help\" for more information");
      return 1;
    }
    if (opts.jobId == null) {
      cli.error("error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.");
      return 1;
    }
    JobStep target = JobStep.parse(opts.jobId);
    Path source = Path.of(parsed.operands().get(0));
    String dest = destination(parsed.operands().get(1), site.destDir());
    PosixFileAttributes attrs;
    try {
      attrs = Files.readAttributes(source, PosixFileAttributes.class);
      if (attrs.isDirectory()) {
        cli.error("error: Can't mmap file `" + source + "`, No such device.");
        return 255;
      }
      try (InputStream probe = Files.newInputStream(source)) {
        // opened as sbcast opens it: a file it may not read is refused before anything is sent
      }
    } catch (IOException e) {
      cli.error("error: Can't open `" + source + "`: " + strerror(e));
      return 255;
    }
    if (attrs.size() == 0) {
      cli.error("error: Warning: file `" + source + "` is empty.");
    }
    if (opts.verbose > 0) {
      verbose(cli, opts, source, dest, attrs);
    }
    try {
      return send(cli, opts, target, source, dest, attrs);
    } catch (IOException | UncheckedIOException e) {
      cli.error("error: " + e.getMessage());
      return 255;
    }
  }

  private static int send(Cli cli, SbcastOptions opts, JobStep target, Path source, String dest,
      PosixFileAttributes attrs) throws IOException {
    int block = (int) Math.max(1, Math.min(opts.blockSize == 0 ? SbcastOptions.DEFAULT_BLOCK : opts.blockSize,
        MAX_BLOCK));
    FileBcastRequest.Builder base = FileBcastRequest.newBuilder().setJobId(target.jobId()).setStep(target.step())
        .setPath(dest).setForce(opts.force).setPreserve(opts.preserve).setMode(mode(attrs))
        .setAtime(attrs.lastAccessTime().toInstant().getEpochSecond())
        .setMtime(attrs.lastModifiedTime().toInstant().getEpochSecond());
    try (InputStream in = Files.newInputStream(source)) {
      long offset = 0;
      byte[] buf = new byte[block];
      byte[] next = new byte[block];
      int n = in.readNBytes(buf, 0, block);
      for (boolean first = true; ; first = false) {
        // a full block may be the last one: read ahead to know
        int following = n < block ? 0 : in.readNBytes(next, 0, block);
        boolean last = following == 0;
        FileBcastRequest.Builder req = base.clone().setOffset(offset).setFirst(first).setLast(last)
            .setDataLength(n);
        if (opts.compress && n > 0) {
          req.setCompressed(true).setData(deflate(buf, n));
        } else {
          req.setData(ByteString.copyFrom(buf, 0, n));
        }
        Response r = cli.controller().get().call(Request.newBuilder().setFileBcast(req).build());
        if (r.getErrorCode() != 0) {
          cli.error("error: Slurm job " + target.text() + " lookup error: " + r.getErrorMessage());
          return 255;
        }
        FileBcastReply reply = r.getFileBcast();
        if (reply.getErrorsCount() > 0) {
          int rc = 0;
          for (FileBcastError e : reply.getErrorsList()) {
            cli.error("error: REQUEST_FILE_BCAST(" + e.getNode() + "): " + e.getMessage());
            rc = e.getErrno();
          }
          return rc & 0xff;
        }
        if (last) {
          return 0;
        }
        offset += n;
        byte[] swap = buf;
        buf = next;
        next = swap;
        n = following;
      }
    }
  }

  private static ByteString deflate(byte[] buf, int n) {
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try {
      deflater.setInput(buf, 0, n);
      deflater.finish();
      ByteString.Output out = ByteString.newOutput(n / 2 + 64);
      byte[] chunk = new byte[64 << 10];
      while (!deflater.finished()) {
        int got = deflater.deflate(chunk);
        out.write(chunk, 0, got);
      }
      return out.toByteString();
    } finally {
      deflater.end();
    }
  }

  /** DEST as given when absolute; else under BcastParameters' DestDir, else the current directory. */
  static String destination(String dest, String destDir) {
    if (dest.startsWith("/")) {
      return dest;
    }
    Path dir = destDir != null ? Path.of(destDir) : Path.of("").toAbsolutePath();
    return dir.resolve(dest).toString();
  }

  private static int mode(PosixFileAttributes attrs) {
    int mode = 0;
    for (PosixFilePermission p : attrs.permissions()) {
      mode |= 1 << (8 - p.ordinal());
    }
    return mode;
  }

  /** strerror's words for the usual reasons a file cannot be read. */
  private static String strerror(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    String m = e.getMessage();
    return m == null ? "Input/output error" : m;
  }

  /** slurm.conf's BcastParameters; none when slurm.conf cannot be read (the controller says why later). */
  private static String siteParameters(Cli cli) {
    try {
      return SlurmConfig.loadShared(SlurmConfig.defaultPath(cli.env())).text(SlurmConfKeys.BCAST_PARAMETERS)
          .orElse("");
    } catch (Exception e) {
      return "";
    }
  }

  /** -v: the settings and the source file, as Slurm's sbcast prints them. */
  private static void verbose(Cli cli, SbcastOptions o, Path source, String dest, PosixFileAttributes a) {
    String p = cli.program() + ": ";
    List<String> lines = List.of("-----------------------------",
        "block_size = " + o.blockSize, "compress   = " + (o.compress ? 1 : 0), "exclude    = " + o.exclude,
        "force      = " + o.force, "fanout     = " + o.fanout, "preserve   = " + o.preserve,
        "send_libs  = false", "timeout    = " + o.timeoutS, "verbose    = " + o.verbose,
        "source     = " + source, "dest       = " + dest, "-----------------------------",
        "modes    = " + Integer.toOctalString(0100000 | mode(a)), "uid      = " + unix(source, "uid"),
        "gid      = " + unix(source, "gid"), "atime    = " + ctime(a.lastAccessTime().toInstant()),
        "mtime    = " + ctime(a.lastModifiedTime().toInstant()),
        "ctime    = " + ctime(((java.nio.file.attribute.FileTime) unix(source, "ctime")).toInstant()),
        "size     = " + a.size());
    lines.forEach(l -> cli.err().println(p + l));
  }

  private static Object unix(Path file, String attribute) {
    try {
      return Files.getAttribute(file, "unix:" + attribute);
    } catch (IOException | UnsupportedOperationException e) {
      return attribute.equals("ctime") ? java.nio.file.attribute.FileTime.fromMillis(0) : -1;
    }
  }

  private static String ctime(Instant t) {
    return CTIME.format(t.atZone(ZoneId.systemDefault()));
  }
}
