package org.corral.slurmd.step;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.corral.slurmd.launch.CleanProcess;

/**
 * Creates or truncates a step's output files and checks its input files, as the user, before
 * any task starts: one short process per node and step, and only when srun named files. A file
 * that cannot be opened fails the launch with Slurm's message ("Could not open stdout file: No
 * such file or directory"); the tools used (truncate, head) print strerror's words.
 */
final class StepFiles {
  private static final String SCRIPT = """
      umask "$1"; shift
      while [ $# -ge 3 ]; do
        what=$1 op=$2 path=$3; shift 3
        case $op in
          truncate) why=$(truncate -s 0 -- "$path" 2>&1) ;;
          append) why=$(truncate -s +0 -- "$path" 2>&1) ;;
          *) why=$(head -c 0 -- "$path" 2>&1) ;;
        esac || { printf 'Could not open %s file: %s\\n' "$what" "${why##*: }"; exit 1; }
      done
      """;

  private StepFiles() {}

  /** Empty when every file is ready; else the reason, in Slurm's words. */
  static Optional<String> prepare(int uid, int gid, String umask, List<StepPlan.FileCheck> files)
      throws IOException {
    if (files.isEmpty()) {
      return Optional.empty();
    }
    List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + Integer.toUnsignedString(uid),
        "--regid=" + Integer.toUnsignedString(gid), "--init-groups", "--", "/bin/sh", "-c", SCRIPT, "step-files", umask));
    for (StepPlan.FileCheck f : files) {
      command.addAll(List.of(f.what(), f.op(), f.path()));
    }
    ProcessBuilder builder = CleanProcess.builder(command).redirectErrorStream(true);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    String output = new String(process.getInputStream().readNBytes(8192), StandardCharsets.UTF_8).strip();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Optional.of("Could not open the step's files: timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while preparing the step's files", e);
    }
    if (process.exitValue() == 0) {
      return Optional.empty();
    }
    return Optional.of(output.isEmpty() ? "Could not open the step's files (exit " + process.exitValue() + ")" : output);
  }
}
