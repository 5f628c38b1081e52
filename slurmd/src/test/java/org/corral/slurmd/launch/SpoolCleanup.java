package org.corral.slurmd.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** After a test: kills every job group still recorded in a spool, so no job outlives its test. */
final class SpoolCleanup {
  private SpoolCleanup() {}

  static void killRunningJobs(Path spool) throws IOException {
    if (spool == null || !Files.isDirectory(spool)) {
      return;
    }
    for (int id : JobDirectory.jobIds(spool)) {
      JobDirectory dir = JobDirectory.in(spool, id);
      if (!dir.hasEnded()) {
        dir.processGroup().ifPresent(group -> {
          try {
            ProcessGroupSignaller.signal(group, ProcessGroupSignaller.SIGKILL);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
    }
  }
}
