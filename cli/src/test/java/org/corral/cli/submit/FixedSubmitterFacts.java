package org.corral.cli.submit;

import java.nio.file.Path;
import java.util.Map;
import org.corral.cli.sbatch.SubmitterFacts;

/** A submitting host for tests: a fixed name, a given directory, no process variables. */
public record FixedSubmitterFacts(String hostname, Path dir) implements SubmitterFacts {

  @Override
  public Path currentDirectory(Map<String, String> env) {
    return dir;
  }

  @Override
  public Map<String, String> processVariables() {
    return Map.of();
  }
}
