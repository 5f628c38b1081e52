package org.corral.slurmd.cgroup;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** One step's confinement: where its processes join, and what they use. */
public interface StepScope {
  String stepId();

  /**
   * The files a process writes its own pid into to join the step (one per cgroup v1 hierarchy,
   * one for cgroup v2, none when nothing confines). A wrapper writes {@code $$} into each, as
   * root, before it drops privileges and runs user code; children inherit the membership.
   */
  List<Path> procsFiles();

  /** The processes in the step now (empty when the backend cannot tell). */
  Set<Long> pids();

  /** ConstrainDevices: denies the step's processes these devices too (see {@link JobScope#denyDevices}). */
  default void denyDevices(List<String> devices) throws java.io.IOException {
    if (!devices.isEmpty()) {
      throw new java.io.IOException("this cgroup backend cannot constrain devices");
    }
  }

  /** What the kernel counted for the step: CPU time, memory peak, OOM kills. */
  CgroupUsage usage();

  /** The step's page cache (file-backed memory) in bytes; -1 when the backend cannot tell. */
  default long cacheBytes() {
    return -1;
  }
}
