package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the node's launcher (job-launcher.pl) needs to start a user's process, shared by batch
 * jobs and step tasks: who, where, which files, exactly which environment and command. Written
 * as DIR/launch, NUL-terminated fields that no shell ever parses (root's, mode 0600). Version 2
 * of the file also carries the cgroup files the process joins and the node CPUs a batch job holds
 * (version 1 kept them in files of their own, "cgroup" and "cores": each file created costs the
 * file system more than the rest of a launch). Version 3, written only for a task with a PMI
 * server, adds the PMI field after the CPUs.
 *
 * @param step the step's name for ps and messages: "42.batch", "42.0"
 * @param stdErr "" = with stdout; for a task {@link #INHERIT} = its stream to srun
 * @param cgroupProcs the cgroup.procs (or tasks) files the process joins as root, none unconfined
 * @param cores the node CPUs a batch job holds (CpuList form), "" for none or a task
 */
public record UserLaunch(Kind kind, int uid, int gid, String node, String step, String workDir, String stdIn,
    String stdOut, String stdErr, boolean append, String umask, List<String> environment, List<String> command,
    List<Path> cgroupProcs, String cores) {

  /** In place of a step task's file path: its stream to srun (the named pipes in its directory). */
  public static final String INHERIT = "-";
  static final String FILE = "launch";
  private static final String VERSION = "2";
  /** Version 2 and the PMI field: "TASKID SOCKET", the step's PMI server the task is handed (--mpi=pmi2). */
  private static final String VERSION_PMI = "3";
  /** Where the cores field stands in a version 2 file (version, kind, uid, gid, node, step, work, in, out, err, mode, umask, cgroups, cores). */
  private static final int CORES_FIELD = 13;
  private static final String DEFAULT_UMASK = "0022";
  private static final Pattern OCTAL_UMASK = Pattern.compile("[0-7]{1,4}");

  /** A batch job (launch errors go to launch.err) or a step's task (they go to srun). */
  public enum Kind { BATCH, TASK }

  public UserLaunch {
    environment = List.copyOf(environment);
    command = List.copyOf(command);
    cgroupProcs = List.copyOf(cgroupProcs);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("a launch needs a command");
    }
  }

  /** Writes DIR/launch (a new file). */
  public void writeTo(Path dir) throws IOException {
    writeTo(dir, "");
  }

  /**
   * Writes DIR/launch; {@code pmi} "TASKID SOCKET" has the launcher connect the task to the
   * step's PMI server (as root, before it drops privileges) and name the stream in PMI_FD.
   */
  public void writeTo(Path dir, String pmi) throws IOException {
    StringBuilder cgroups = new StringBuilder();
    for (Path procs : cgroupProcs) {
      if (procs.toString().indexOf('\n') >= 0) {
        throw new IllegalArgumentException("newline in a cgroup path: " + procs);
      }
      cgroups.append(procs).append('\n');
    }
    List<String> fields = new ArrayList<>(List.of(pmi.isEmpty() ? VERSION : VERSION_PMI,
        kind.name().toLowerCase(java.util.Locale.ROOT), Integer.toUnsignedString(uid), Integer.toUnsignedString(gid),
        node, step, workDir, stdIn, stdOut, stdErr, append ? "append" : "truncate", umask, cgroups.toString(), cores));
    if (!pmi.isEmpty()) {
      fields.add(pmi);
    }
    fields.add(Integer.toString(environment.size()));
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
    // An existing file is a recycled directory's, emptied (SpoolRecycler): root's, in a root-only directory.
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  /**
   * The cores field of DIR/launch: empty when the file is missing, unreadable, of version 1 (its
   * cores are in a file of their own) or names none.
   */
  static Optional<String> cores(Path dir) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(dir.resolve(FILE));
    } catch (IOException e) {
      return Optional.empty();
    }
    String[] fields = new String(bytes, StandardCharsets.UTF_8).split("\0", CORES_FIELD + 2);
    if (fields.length <= CORES_FIELD || !(fields[0].equals(VERSION) || fields[0].equals(VERSION_PMI))
        || fields[CORES_FIELD].isBlank()) {
      return Optional.empty();
    }
    return Optional.of(fields[CORES_FIELD]);
  }

  /** The umask srun or sbatch passed in SLURM_UMASK (the last valid one), else 0022. */
  public static String umask(List<String> environment) {
    String umask = DEFAULT_UMASK;
    for (String e : environment) {
      if (e.startsWith("SLURM_UMASK=")) {
        String m = e.substring("SLURM_UMASK=".length());
        if (OCTAL_UMASK.matcher(m).matches()) {
          umask = m;
        }
      }
    }
    return umask;
  }
}
