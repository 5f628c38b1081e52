package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * One job's directory in the spool, {@code job00042/}: root-owned (mode 0711) so that the user
 * can reach their script but can neither list nor change what root writes here. Files:
 * slurm_script (the user's, 0500), launch (slurmd's orders to job-launcher.pl: who, where, which
 * files, the cgroup files the job's pid is written into, the node CPUs the job holds, the
 * environment and the command; older versions kept the cgroup files and the CPUs in files
 * "cgroup" and "cores"), and what the job's supervisor writes:
 * record (lines "wrapper PID TICKS", "pid PID", "status STATUS") and, when the job could not
 * start, launch.err.
 */
public final class JobDirectory {
  static final String SCRIPT = "slurm_script";
  static final String RECORD = "record";
  private static final String PREFIX = "job";
  private static final int MAX_MESSAGE_CHARS = 4000;
  private static final int MAX_READ_BYTES = 64 * 1024;

  private final int jobId;
  private final Path dir;

  private JobDirectory(int jobId, Path dir) {
    this.jobId = jobId;
    this.dir = dir;
  }

  /** A directory of a supervisor's files at any path (a step task's), named by {@code id}. */
  public static JobDirectory at(Path dir, int id) {
    return new JobDirectory(id, dir);
  }

  static JobDirectory in(Path spoolDir, int jobId) {
    return new JobDirectory(jobId, spoolDir.resolve(name(jobId)));
  }

  /** job00042: the id zero-padded to five digits (String.format costs more than the rest of a lookup). */
  static String name(int jobId) {
    if (jobId < 0) {
      return String.format("%s%05d", PREFIX, jobId);
    }
    String digits = Integer.toString(jobId);
    return digits.length() >= 5 ? PREFIX + digits : PREFIX + "00000".substring(digits.length()) + digits;
  }

  /** The job ids that have a directory in the spool. */
  static List<Integer> jobIds(Path spoolDir) throws IOException {
    List<Integer> ids = new ArrayList<>();
    try (Stream<Path> entries = Files.list(spoolDir)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        if (Files.isDirectory(entry)) {
          idOf(entry).ifPresent(ids::add);
        }
      }
    }
    return ids;
  }

  int jobId() {
    return jobId;
  }

  Path path() {
    return dir;
  }

  boolean exists() {
    return Files.isDirectory(dir);
  }

  /** Creates the directory; false when it already exists (the job was launched before). */
  boolean create() throws IOException {
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      return false;
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    return true;
  }

  Path script() {
    return dir.resolve(SCRIPT);
  }

  /** The job id of a spool directory named job00042, if it is one. */
  static Optional<Integer> idOf(Path jobDir) {
    String name = jobDir.getFileName() == null ? "" : jobDir.getFileName().toString();
    if (!name.startsWith(PREFIX) || name.length() == PREFIX.length()
        || !name.substring(PREFIX.length()).chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Integer.parseUnsignedInt(name.substring(PREFIX.length())));
    } catch (NumberFormatException tooLarge) {
      return Optional.empty();
    }
  }

  /**
   * Writes the job's script, owned by the job's user. A recycled directory's script is reused
   * for the same user only: another user's may still be open for writing by its owner.
   */
  void writeScript(LaunchPlan plan) throws IOException {
    Path script = script();
    try {
      writeUserFile(script, plan.script(), "r-x------", plan, StandardOpenOption.CREATE_NEW);
    } catch (FileAlreadyExistsException e) {
      if (!Integer.valueOf(plan.uid()).equals(Files.getAttribute(script, "unix:uid"))) {
        Files.delete(script);
        writeUserFile(script, plan.script(), "r-x------", plan, StandardOpenOption.CREATE_NEW);
      } else {
        writeUserFile(script, plan.script(), "r-x------", plan, StandardOpenOption.TRUNCATE_EXISTING);
      }
    }
  }

  /**
   * Writes the launch file job-launcher.pl reads (root's): NUL-terminated fields, never parsed by
   * a shell, with the cgroup files the job joins and the node CPUs it holds.
   */
  void writeLaunch(LaunchPlan plan, List<String> scriptPrefix, String nodeName, JobConfinement.Confined confined,
      java.util.function.UnaryOperator<UserLaunch> plugins) throws IOException {
    List<String> command = new ArrayList<>(scriptPrefix);
    command.add(script().toString());
    command.addAll(plan.argv());
    plugins.apply(new UserLaunch(UserLaunch.Kind.BATCH, plan.uid(), plan.gid(), nodeName,
        Integer.toUnsignedString(jobId) + ".batch", plan.workDir(), plan.stdIn(), plan.stdOut(), plan.stdErr(),
        plan.append(), plan.umask(), plan.environment(), command, confined.cgroupProcs(), confined.cores()))
        .writeTo(dir);
  }

  /** The node CPUs the job holds, as its launch file (or, written by an earlier version, its cores file) says. */
  Optional<String> cores() {
    Optional<String> cores = UserLaunch.cores(dir);
    return cores.isPresent() ? cores : read("cores");
  }

  private static void writeUserFile(Path file, String text, String mode, LaunchPlan plan, StandardOpenOption how)
      throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, how, StandardOpenOption.WRITE);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    Files.setAttribute(file, "unix:gid", plan.gid());
    Files.setAttribute(file, "unix:uid", plan.uid());
  }

  /** A root-owned file of slurmd's own in the job's directory (cores, cgroup), replaced atomically. */
  public void writeRootFile(String name, String text) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  Optional<String> readRootFile(String name) {
    return read(name);
  }

  /** Where the supervisor stands, by its record of itself. */
  public enum Supervisor { UNRECORDED, RUNNING, GONE }

  /** Whether the supervisor recorded itself, and whether that process (not a reuser of its pid) still runs. */
  public Supervisor supervisor() {
    return wrapperRecord()
        .map(w -> ProcessGroups.running(w[0], w[1]) ? Supervisor.RUNNING : Supervisor.GONE)
        .orElse(Supervisor.UNRECORDED);
  }

  /** The supervisor's record of itself: {pid, start time in clock ticks after boot}, once written. */
  Optional<long[]> wrapperRecord() {
    return recorded("wrapper").flatMap(text -> {
      String[] parts = text.split(" ");
      try {
        return parts.length == 2
            ? Optional.of(new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])})
            : Optional.empty();
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    });
  }

  /** The job's pid = process group id, once the wrapper has recorded it. */
  public OptionalLong processGroup() {
    Optional<String> text = recorded("pid");
    try {
      return text.isPresent() ? OptionalLong.of(Long.parseLong(text.get())) : OptionalLong.empty();
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  public boolean hasEnded() {
    return recorded("status").isPresent();
  }

  /**
   * The value of the record line "KEY VALUE" (the last one, if repeated). The wrapper appends
   * each line in one write, so only lines ending in a newline are whole.
   */
  private Optional<String> recorded(String key) {
    Optional<String> text = read(RECORD);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    String value = null;
    String prefix = key + " ";
    int from = 0;
    String all = text.get();
    for (int eol = all.indexOf('\n'); eol >= 0; from = eol + 1, eol = all.indexOf('\n', from)) {
      if (all.startsWith(prefix, from)) {
        value = all.substring(from + prefix.length(), eol).strip();
      }
    }
    return Optional.ofNullable(value);
  }

  /** What the job used as its supervisor saw it end (getrusage), if it wrote that. */
  public record EndUsage(long userCpuMs, long sysCpuMs, long maxRssKb) {}

  public Optional<EndUsage> endUsage() {
    Optional<String> text = recorded("usage");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    String[] f = text.get().split(" ");
    try {
      return f.length == 3 ? Optional.of(new EndUsage(Long.parseLong(f[0]), Long.parseLong(f[1]),
          Long.parseLong(f[2]))) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** How the job ended, once the wrapper has written its status. */
  public Optional<JobEnd> end() throws IOException {
    Optional<String> status = recorded("status");
    if (status.isEmpty()) {
      return Optional.empty();
    }
    long endTime = modified(RECORD);
    int exitStatus;
    try {
      exitStatus = Integer.parseInt(status.get());
    } catch (NumberFormatException e) {
      return Optional.of(JobEnd.failed(0, endTime, "unreadable job status: " + status.get()));
    }
    String launchError = read("launch.err").map(JobDirectory::message).orElse("");
    return Optional.of(launchError.isEmpty()
        ? new JobEnd(exitStatus, endTime, false, "")
        : JobEnd.failed(exitStatus, endTime, launchError));
  }

  private long modified(String name) throws IOException {
    return Files.getLastModifiedTime(dir.resolve(name)).toInstant().getEpochSecond();
  }

  private Optional<String> read(String name) {
    // Bounded: launch.err can hold user-chosen paths, and no file may blow up the daemon.
    try (var in = Files.newInputStream(dir.resolve(name))) {
      return Optional.of(new String(in.readNBytes(MAX_READ_BYTES), StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String message(String text) {
    String trimmed = text.strip();
    return trimmed.length() <= MAX_MESSAGE_CHARS ? trimmed : trimmed.substring(0, MAX_MESSAGE_CHARS) + "...";
  }

  /** Removes the directory and everything in it. */
  public void delete() throws IOException {
    deleteTree(dir);
  }

  /** Deletes each entry (a directory, after its own entries), then the directory; gone already is fine. */
  static void deleteTree(Path directory) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        deleteEntry(entry);
      }
    } catch (NoSuchFileException e) {
      return;
    }
    Files.deleteIfExists(directory);
  }

  /** Deletes a file, or a directory and everything in it. */
  static void deleteEntry(Path entry) throws IOException {
    try {
      Files.deleteIfExists(entry);
    } catch (DirectoryNotEmptyException e) {
      deleteTree(entry);
    }
  }
}
