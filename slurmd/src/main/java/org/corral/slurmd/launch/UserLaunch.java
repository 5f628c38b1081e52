package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the node's launcher (job-launcher.pl) needs to start a user's process, shared by batch
 * jobs and step tasks: who, where, which files, exactly which environment and command. Written
 * as DIR/launch, NUL-terminated fields that no shell ever parses (root's, mode 0600).
 *
 * @param step the step's name for ps and messages: "42.batch", "42.0"
 * @param stdErr "" = with stdout; for a task {@link #INHERIT} = its stream to srun
 */
public record UserLaunch(Kind kind, int uid, int gid, String node, String step, String workDir, String stdIn,
    String stdOut, String stdErr, boolean append, String umask, List<String> environment, List<String> command) {

  /** In place of a step task's file path: its stream to srun (the named pipes in its directory). */
  public static final String INHERIT = "-";
  private static final String FILE = "launch";
  private static final String DEFAULT_UMASK = "0022";
  private static final Pattern OCTAL_UMASK = Pattern.compile("[0-7]{1,4}");

  /** A batch job (launch errors go to launch.err) or a step's task (they go to srun). */
  public enum Kind { BATCH, TASK }

  public UserLaunch {
    environment = List.copyOf(environment);
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("a launch needs a command");
    }
  }

  /** Writes DIR/launch (a new file). */
  public void writeTo(Path dir) throws IOException {
    List<String> fields = new ArrayList<>(List.of("1", kind.name().toLowerCase(java.util.Locale.ROOT),
        Integer.toUnsignedString(uid), Integer.toUnsignedString(gid), node, step, workDir, stdIn, stdOut, stdErr,
        append ? "append" : "truncate", umask, Integer.toString(environment.size())));
    fields.addAll(environment);
    fields.addAll(command);
    StringBuilder text = new StringBuilder();
    for (String field : fields) {
      if (field.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("NUL character in a launch field");
      }
      text.append(field).append('\0');
    }
    Path file = dir.resolve(FILE);
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  /** The umask srun or sbatch passed in SLURM_UMASK (the last valid one), else 0022. */
  public static String umask(List<String> environment) {
    return environment.stream()
        .filter(e -> e.startsWith("SLURM_UMASK="))
        .map(e -> e.substring("SLURM_UMASK=".length()))
        .filter(m -> OCTAL_UMASK.matcher(m).matches())
        .reduce((first, second) -> second)
        .orElse(DEFAULT_UMASK);
  }
}
