package org.corral.ctld.runtime;

import java.util.Set;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;

/**
 * What the controller orders on a job's nodes besides the batch launch: the Prolog at allocation
 * (PrologFlags=Alloc, or Contain/X11 which imply it) and the Epilog when the job ends (Epilog=).
 */
record NodeHookPolicy(boolean prologAtAllocation, boolean epilog) {
  static final NodeHookPolicy NONE = new NodeHookPolicy(false, false);

  static NodeHookPolicy of(SlurmConfig cfg) {
    Set<String> flags = cfg.value(SlurmConfKeys.PROLOG_FLAGS);
    boolean alloc = cfg.text(SlurmConfKeys.PROLOG).isPresent() && flags != null
        && (flags.contains("Alloc") || flags.contains("Contain") || flags.contains("X11"));
    return new NodeHookPolicy(alloc, cfg.text(SlurmConfKeys.EPILOG).isPresent());
  }
}
