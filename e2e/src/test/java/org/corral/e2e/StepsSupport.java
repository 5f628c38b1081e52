package org.corral.e2e;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the srun and salloc tests share. */
final class StepsSupport {

  private StepsSupport() {}

  /**
   * Skips the tests (visibly) while the controller does not know the step requests yet: it
   * answers them "unexpected request". Any other answer, success or failure, runs them.
   */
  static void assumeControllerRunsSteps(LocalCluster cluster) throws Exception {
    LocalCluster.Result probe = cluster.as(null, "srun", "-N1", "true");
    assumeFalse(probe.err().contains("unexpected request"),
        "the controller does not answer step requests yet: " + probe.err());
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
