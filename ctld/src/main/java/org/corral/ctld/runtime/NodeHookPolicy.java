package org.corral.ctld.runtime;

import java.util.Locale;
import org.corral.common.config.SlurmConfig;

/**
 * What the controller orders on a job's nodes besides the batch launch: the Prolog at allocation
 * (PrologFlags=Alloc, or Contain/X11 which imply it) and the Epilog when the job ends (Epilog=).
 */
record NodeHookPolicy(boolean prologAtAllocation, boolean epilog) {
  static final NodeHookPolicy NONE = new NodeHookPolicy(false, false);

  static NodeHookPolicy of(SlurmConfig cfg) {
    String flags = "," + cfg.get("PrologFlags").orElse("").toLowerCase(Locale.ROOT).replace(" ", "") + ",";
    boolean alloc = cfg.get("Prolog").isPresent()
        && (flags.contains(",alloc,") || flags.contains(",contain,") || flags.contains(",x11,"));
    return new NodeHookPolicy(alloc, cfg.get("Epilog").isPresent());
  }
}
