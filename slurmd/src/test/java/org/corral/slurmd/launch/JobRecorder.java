package org.corral.slurmd.launch;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A JobListener for tests: keeps each job's end and counts every call. */
final class JobRecorder implements JobListener {
  record Ended(int exitStatus, long endTimeEpochSec, boolean launchFailed, String message) {}

  private final Map<Integer, CompletableFuture<Ended>> ends = new ConcurrentHashMap<>();
  private final AtomicInteger calls = new AtomicInteger();
  private final Map<Integer, Boolean> outOfMemory = new ConcurrentHashMap<>();
  private final Map<Integer, org.corral.protocol.msg.StepUsage> usage = new ConcurrentHashMap<>();

  @Override
  public void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message,
      boolean oom, NodeTrouble trouble, org.corral.protocol.msg.StepUsage used) {
    if (used != null) {
      usage.put(jobId, used);
    }
    finished(jobId, exitStatus, endTimeEpochSec, launchFailed, message, oom, trouble);
  }

  /** The batch step's usage the end report carried (null: none). */
  org.corral.protocol.msg.StepUsage usage(int jobId) {
    return usage.get(jobId);
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message,
      boolean oom) {
    outOfMemory.put(jobId, oom);
    finished(jobId, exitStatus, endTimeEpochSec, launchFailed, message);
  }

  /** Whether the end report said the OOM killer struck (false before the job ended). */
  boolean outOfMemory(int jobId) {
    return outOfMemory.getOrDefault(jobId, false);
  }

  @Override
  public void finished(int jobId, int exitStatus, long endTimeEpochSec, boolean launchFailed, String message) {
    calls.incrementAndGet();
    future(jobId).complete(new Ended(exitStatus, endTimeEpochSec, launchFailed, message));
  }

  Ended await(int jobId) throws Exception {
    return future(jobId).get(20, TimeUnit.SECONDS);
  }

  boolean hasEnded(int jobId) {
    return future(jobId).isDone();
  }

  int calls() {
    return calls.get();
  }

  private CompletableFuture<Ended> future(int jobId) {
    return ends.computeIfAbsent(jobId, id -> new CompletableFuture<>());
  }
}
