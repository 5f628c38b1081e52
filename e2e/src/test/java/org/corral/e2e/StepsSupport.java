package org.corral.e2e;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the srun and salloc tests share. */
final class StepsSupport {

  private StepsSupport() {}

  /** A command's output as lines (none for no output). */
  static List<String> lines(String text) {
    return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
  }

  /** The job id in "salloc: Granted job allocation N". */
  static int grantedJob(String stderr) {
    Matcher m = Pattern.compile("salloc: Granted job allocation (\\d+)").matcher(stderr);
    if (!m.find()) {
      throw new IllegalStateException("no allocation granted: " + stderr);
    }
    return Integer.parseInt(m.group(1));
  }
}
