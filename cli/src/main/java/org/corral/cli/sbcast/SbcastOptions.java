package org.corral.cli.sbcast;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.Atoi;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;

/**
 * sbcast's options as Slurm 22.05 reads them: the SBCAST_* environment variables first, then the
 * command line. What Slurm accepts with a message and goes on without (an unknown compression
 * library, a bad block size) is reported to {@code cli} the same way.
 */
final class SbcastOptions {
  static final Getopt GETOPT = new Getopt("C::fF:j:ps:t:vV", List.of(
      new LongOpt("compress", Arg.OPTIONAL, "C"),
      new LongOpt("exclude", Arg.REQUIRED, "exclude"),
      new LongOpt("fanout", Arg.REQUIRED, "F"),
      new LongOpt("force", Arg.NONE, "f"),
      new LongOpt("jobid", Arg.REQUIRED, "j"),
      new LongOpt("preserve", Arg.NONE, "p"),
      new LongOpt("send-libs", Arg.OPTIONAL, "send-libs"),
      new LongOpt("size", Arg.REQUIRED, "s"),
      new LongOpt("timeout", Arg.REQUIRED, "t"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("usage", Arg.NONE, "usage")));
  /** Slurm's default block: the file, or 8 MB when larger. */
  static final long DEFAULT_BLOCK = 8L << 20;

  boolean compress;
  boolean force;
  boolean preserve;
  int fanout;
  int timeoutS;
  int verbose;
  long blockSize = DEFAULT_BLOCK;
  String exclude = "/lib,/usr/lib,/lib64,/usr/lib64";
  /** -j as given (or SLURM_JOB_ID); null when neither. */
  String jobId;

  /** The SBCAST_* variables, as if given first on the command line. */
  void fromEnvironment(Map<String, String> env, Cli cli) {
    if (env.containsKey("SBCAST_COMPRESS")) {
      compression(env.get("SBCAST_COMPRESS"), cli);
    }
    if (env.containsKey("SBCAST_EXCLUDE")) {
      exclude = env.get("SBCAST_EXCLUDE");
    }
    if (env.containsKey("SBCAST_FANOUT")) {
      fanout = Atoi.of(env.get("SBCAST_FANOUT"));
    }
    if (env.containsKey("SBCAST_FORCE")) {
      force = true;
    }
    if (env.containsKey("SBCAST_PRESERVE")) {
      preserve = true;
    }
    if (env.containsKey("SBCAST_SIZE")) {
      size(env.get("SBCAST_SIZE"), cli);
    }
    if (env.containsKey("SBCAST_TIMEOUT")) {
      timeoutS = Atoi.of(env.get("SBCAST_TIMEOUT"));
    }
    if (env.get("SLURM_JOB_ID") != null) {
      jobId = env.get("SLURM_JOB_ID");
    }
  }

  /** One parsed command-line option (not --help, --usage or -V). */
  void apply(Getopt.Opt o, Cli cli) {
    switch (o.key()) {
      case "C" -> compression(o.value(), cli);
      case "exclude" -> exclude = o.value();
      case "F" -> fanout = Atoi.of(o.value());
      case "f" -> force = true;
      case "j" -> jobId = o.value();
      case "p" -> preserve = true;
      case "s" -> size(o.value(), cli);
      case "t" -> timeoutS = Atoi.of(o.value());
      case "v" -> verbose++;
      default -> { }
    }
  }

  /** -C[LIB]: lz4 (the default) or none; anything else is reported and turns compression off. */
  void compression(String library, Cli cli) {
    if (library == null || library.isEmpty() || library.equalsIgnoreCase("lz4")) {
      compress = true;
    } else if (library.equalsIgnoreCase("none")) {
      compress = false;
    } else {
      cli.error("error: Compression type '" + library + "' unknown, disabling compression support.");
      compress = false;
    }
  }

  /** -s N[k|m]; a bad size is ignored with Slurm's words. */
  private void size(String text, Cli cli) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (t.endsWith("k")) {
      unit = 1024;
      t = t.substring(0, t.length() - 1);
    } else if (t.endsWith("m")) {
      unit = 1024 * 1024;
      t = t.substring(0, t.length() - 1);
    }
    try {
      long v = Long.parseLong(t);
      if (v < 0) {
        throw new NumberFormatException();
      }
      blockSize = v * unit;
    } catch (NumberFormatException e) {
      cli.err().println("size specification is invalid, ignored");
    }
  }
}
