package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.corral.ctld.journal.JobIdHighWater;
import org.corral.ctld.journal.Journal;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.TestStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots are streamed on a thread of their own while submissions go on: every acknowledged
 * job is in what a crash at the end would leave (the newest snapshot plus the journal after it)
 * and in what a clean stop leaves.
 */
class SnapshotWhileSubmittingTest {
  private static final int THREADS = 8;
  private static final int PER_THREAD = 800;

  @TempDir Path dir;

  private static Set<Integer> recoveredJobs(Path journalDir) throws Exception {
    try (Journal j = Journal.open(journalDir, RecoveryMode.STRICT)) {
      return StateRecovery.recover(j, 1).jobs().keySet();
    }
  }

  private static List<Path> snapshots(Path journalDir) throws Exception {
    try (Stream<Path> s = Files.list(journalDir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".snap")).toList();
    }
  }

  @Test
  void aSnapshotTakenWhileSubmissionsFlowLosesNone() throws Exception {
    Path live = dir.resolve("journal");
    Journal journal = Journal.open(live, RecoveryMode.STRICT);
    ClusterState start = TestStates.cluster(1, 4, 1000);
    StateWriter writer = new StateWriter(start, new org.corral.ctld.journal.LocalJournalLog(journal), JobIdHighWater.open(dir), () -> { }, 64 << 10);
    Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> submitters = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      submitters.add(pool.submit(() -> {
        for (int i = 0; i < PER_THREAD; i++) {
          int id = writer.submit(s -> {
            int next = s.nextJobId();
            return Decision.of(next, new Command.SubmitJob(next, 100, 1000, "alice", 1000, "alice",
                TestStates.spec().setComment("c".repeat(200)).setHold(true).build()));
          }).get();
          acknowledged.add(id);
        }
        return null;
      }));
    }
    for (Future<?> f : submitters) {
      f.get();
    }
    pool.shutdown();
    while (writer.snapshotInProgress()) {
      Thread.sleep(20);
    }
    // what a crash now leaves: the files as they are, no final snapshot
    Path crashed = dir.resolve("crashed");
    Files.createDirectories(crashed);
    try (Stream<Path> files = Files.list(live)) {
      for (Path f : files.filter(p -> !p.getFileName().toString().equals("journal.lock")).toList()) {
        Files.copy(f, crashed.resolve(f.getFileName()));
      }
    }
    writer.close();
    journal.close();

    assertThat(acknowledged).hasSize(THREADS * PER_THREAD);
    assertThat(snapshots(crashed)).as("snapshots written while submissions flowed").isNotEmpty();
    assertThat(recoveredJobs(crashed)).containsExactlyInAnyOrderElementsOf(acknowledged);
    assertThat(recoveredJobs(live)).containsExactlyInAnyOrderElementsOf(acknowledged);
  }
}
