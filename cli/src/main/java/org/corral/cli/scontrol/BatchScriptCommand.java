package org.corral.cli.scontrol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.ProcessFacts;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.BatchScriptRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol write batch_script JOBID [FILE]}: the job's script into FILE (default
 * slurm-JOBID.sh in the current directory; {@code -} standard output). As in Slurm 22.05 the id
 * is read as a leading number ({@code 12_3} is job 12) and failures are reported with exit
 * status 0.
 */
final class BatchScriptCommand {
  private BatchScriptCommand() {}

  static int run(List<String> args, Cli cli) {
    if (args.isEmpty()) {
      return 0;
    }
    int jobId = leadingNumber(args.get(0));
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder()
          .setBatchScript(BatchScriptRequest.newBuilder().setJobId(jobId)).build());
    } catch (IOException e) {
      cli.err().println("job script retrieval failed: " + SlurmError.CONTROLLER_DOWN.message());
      return 0;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("job script retrieval failed: " + SlurmError.messageFor(r.getErrorCode()));
      return 0;
    }
    String script = r.getBatchScript().getScript();
    String name = args.size() > 1 ? args.get(1) : "slurm-" + jobId + ".sh";
    if (name.equals("-")) {
      cli.out().print(script);
      cli.out().flush();
      return 0;
    }
    try {
      Path file = cli.caller().resolve(name);
      boolean created = !Files.exists(file);
      Files.writeString(file, script, StandardCharsets.UTF_8);
      if (created) {
        // the caller's umask, not this process's (the command server runs with 077)
        ProcessFacts.modeForNewFile(cli.caller().procDir()).ifPresent(mode -> setMode(file, mode));
      }
    } catch (IOException | RuntimeException e) {
      cli.err().println("failed to open file `" + name + "`: " + (e instanceof java.nio.file.AccessDeniedException
          ? "Permission denied" : e instanceof java.nio.file.FileSystemException ? "No such file or directory"
          : e.getMessage()));
      return 0;
    }
    cli.out().println("batch script for job " + jobId + " written to " + name);
    return 0;
  }

  private static void setMode(Path file, java.util.Set<java.nio.file.attribute.PosixFilePermission> mode) {
    try {
      Files.setPosixFilePermissions(file, mode);
    } catch (IOException | UnsupportedOperationException e) {
      // the file stays as created, with this process's umask
    }
  }

  /** strtol's reading: the digits at the start, 0 without any. */
  private static int leadingNumber(String word) {
    int end = 0;
    while (end < word.length() && end < 9 && Character.isDigit(word.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(word.substring(0, end));
  }
}
