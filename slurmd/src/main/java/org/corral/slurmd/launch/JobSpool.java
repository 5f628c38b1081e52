package org.corral.slurmd.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * One job's directory in the node's spool ({@code job<ID>}): the launch request, the script
 * (owned by the user), the environment (root only), and what the job shell records: the job's
 * process group and, at the end, its exit status. It outlives slurmd, which is how a restarted
 * slurmd re-adopts running jobs and learns of jobs that ended while it was down.
 */
final class JobSpool {
  static final String REQUEST = "request";
  static final String SCRIPT = "slurm_script";
  static final String ENVIRONMENT = "environment";
  static final String WRAPPER = "wrapper";
  static final String PGID = "pgid";
  static final String EXIT = "exit";

  final int jobId;
  final Path dir;

  JobSpool(Path spoolRoot, int jobId) {
    this.jobId = jobId;
    this.dir = spoolRoot.resolve("job" + jobId);
  }

  boolean exists() {
    return Files.isDirectory(dir);
  }

  void create() throws IOException {
    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
  }

  void writePrivate(String name, byte[] data) throws IOException {
    Path f = dir.resolve(name);
    Files.write(f, data);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
  }

  OptionalLong readLong(String name) {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(dir.resolve(name), StandardCharsets.US_ASCII).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  OptionalInt exitStatus() {
    OptionalLong v = readLong(EXIT);
    return v.isPresent() ? OptionalInt.of((int) v.getAsLong()) : OptionalInt.empty();
  }

  void delete() throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
