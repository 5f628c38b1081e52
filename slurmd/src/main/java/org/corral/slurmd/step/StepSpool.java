package org.corral.slurmd.step;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.corral.slurmd.launch.JobDirectory;
import org.corral.slurmd.launch.ProcessGroupSignaller;

/**
 * The steps' part of the spool, {@code steps/}: one root-only directory per step running here
 * ({@code job42.0/}), holding one wrapper directory per task ({@code task3/}: pid, status). A
 * directory found at start-up belongs to a slurmd that died: nobody relays its tasks' I/O any
 * more, so they are killed (see docs/compatibility.md) and the directory goes.
 */
final class StepSpool {
  private static final System.Logger LOG = System.getLogger("slurmd");

  private StepSpool() {}

  static String dirName(StepKey key) {
    return "job" + key;
  }

  /** Kills the tasks an earlier slurmd left running and empties the directory. */
  static void clearLeftovers(Path stepsDir) throws IOException {
    Files.createDirectories(stepsDir);
    try (Stream<Path> steps = Files.list(stepsDir)) {
      for (Path step : (Iterable<Path>) steps::iterator) {
        try (Stream<Path> tasks = Files.list(step)) {
          for (Path task : (Iterable<Path>) tasks::iterator) {
            JobDirectory dir = JobDirectory.at(task, 0);
            OptionalLong group = dir.processGroup();
            if (group.isPresent() && !dir.hasEnded()) {
              LOG.log(Level.INFO, "killing a task left by an earlier slurmd: " + step.getFileName() + "/"
                  + task.getFileName());
              ProcessGroupSignaller.signal(group.getAsLong(), ProcessGroupSignaller.SIGKILL);
            }
          }
        } catch (IOException e) {
          LOG.log(Level.WARNING, "cannot read " + step, e);
        }
        delete(step);
      }
    }
  }

  /** Removes a directory tree, quietly (a failure is logged). */
  static void delete(Path dir) {
    try {
      JobDirectory.at(dir, 0).delete();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot remove " + dir, e);
    }
  }
}
