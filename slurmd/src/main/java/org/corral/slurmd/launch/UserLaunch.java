package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The two shell scripts that start a user's process from root, shared by batch jobs and step
 * tasks: job-wrapper.sh (root, records the process's pid and its wait(2)-style status in a
 * directory of its own) and job-user.sh (the user, after setpriv: opens the files, changes to
 * the work directory, execs the command with exactly the given environment).
 */
public final class UserLaunch {
  private static final String WRAPPER = "job-wrapper.sh";
  private static final String USER_SHELL = "job-user.sh";
  /** In place of a file path: keep the inherited descriptor (a step task's pipe to slurmd). */
  public static final String INHERIT = "-";

  /** How the user's process gets its standard descriptors. */
  public enum Io {
    /** A batch job: job-user.sh opens its files; launch errors go to the directory's launch.err. */
    FILES,
    /** A step task: the wrapper's stdin, stdout and stderr are passed on. */
    STREAMS
  }

  /** What job-user.sh needs; a path of {@link #INHERIT} keeps the inherited descriptor. */
  public record UserFiles(String workDir, String stdIn, String stdOut, String stdErr, boolean append, String umask) {}

  private static final String DEFAULT_UMASK = "0022";
  private static final Pattern OCTAL_UMASK = Pattern.compile("[0-7]{1,4}");

  private final Path spoolDir;

  private UserLaunch(Path spoolDir) {
    this.spoolDir = spoolDir;
  }

  /** Installs (or replaces) the scripts in the spool directory. */
  public static UserLaunch install(Path spoolDir) throws IOException {
    UserLaunch launch = new UserLaunch(spoolDir);
    launch.installScript(WRAPPER);
    launch.installScript(USER_SHELL);
    return launch;
  }

  /**
   * The command that runs {@code words} (NAME=value entries, then the command and its arguments;
   * empty for a batch job, whose words are in {@code dir}/environment) as uid:gid, in a session
   * and process group of its own, recording pid and status in {@code dir}.
   */
  public ProcessBuilder command(Path dir, int uid, int gid, Io io, String nodeName, UserFiles files, List<String> words) {
    String d = dir.toString();
    List<String> command = new ArrayList<>(List.of(
        "setsid", "/bin/sh", spoolDir.resolve(WRAPPER).toString(),
        d, Integer.toUnsignedString(uid), Integer.toUnsignedString(gid), io == Io.STREAMS ? "streams" : "files",
        spoolDir.resolve(USER_SHELL).toString(),
        d, nodeName, files.workDir(), files.stdIn(), files.stdOut(), files.stdErr(),
        files.append() ? "append" : "truncate", files.umask()));
    command.addAll(words);
    return CleanProcess.builder(command);
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

  private void installScript(String name) throws IOException {
    SpoolScripts.install(spoolDir, name, UserLaunch.class);
  }

}
