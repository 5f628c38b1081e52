package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.corral.ctld.journal.InMemoryLog;
import org.corral.ctld.journal.StateLog;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.junit.jupiter.api.Test;

/**
 * The writer over a {@link StateLog} it does not know: an in-memory log here. A decision's
 * commands are applied all or none, a batch is one commit, and what was committed replays to the
 * state the writer published. A log that says this controller no longer leads stops the writer,
 * refusing what waits with Slurm's standby error.
 */
class StateWriterLogTest {

  private static Command.SubmitJob job(int id) {
    return new Command.SubmitJob(id, 100, 1000, "alice", 1000, "alice", TestStates.spec().setHold(true).build());
  }

  @Test
  void aDecisionWithACommandThatCannotApplyChangesNothing() throws Exception {
    InMemoryLog log = new InMemoryLog();
    ClusterState start = TestStates.cluster(1, 4, 1000);
    StateWriter writer = new StateWriter(start, log, null, () -> { });
    try {
      int first = start.nextJobId();
      CompletableFuture<Object> bad = writer.submit(s -> Decision.of("never",
          job(first), new Command.SubmitJob(first + 1, 100, 1000, "alice", 1000, "alice", null)));
      assertThatThrownBy(bad::get).isInstanceOf(ExecutionException.class);
      assertThat(writer.current().jobs()).isEmpty();
      assertThat(log.committed()).isEmpty();

      assertThat(writer.submit(s -> Decision.of("ok", job(s.nextJobId()), job(s.nextJobId() + 1))).get())
          .isEqualTo("ok");
      assertThat(writer.current().jobs()).hasSize(2);
      assertThat(log.committed()).hasSize(2);
    } finally {
      writer.close();
    }
  }

  @Test
  void whatWasCommittedReplaysToThePublishedState() throws Exception {
    InMemoryLog log = new InMemoryLog();
    ClusterState start = TestStates.cluster(1, 4, 1000);
    StateWriter writer = new StateWriter(start, log, null, () -> { });
    List<CompletableFuture<Integer>> acks = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      acks.add(writer.submit(s -> Decision.of(s.nextJobId(), job(s.nextJobId()))));
    }
    for (CompletableFuture<Integer> f : acks) {
      f.get();
    }
    ClusterState published = writer.current();
    writer.close();
    ClusterState replayed = start;
    for (byte[] r : log.committed()) {
      replayed = StateMachine.apply(replayed, CommandCodec.decode(r));
    }
    assertThat(replayed.jobs().keySet()).isEqualTo(published.jobs().keySet()).hasSize(200);
    assertThat(log.commits()).isBetween(1, 200); // group commit: batches, not one commit a command
    assertThat(log.snapshot()).isNotNull(); // the final snapshot at a clean stop
  }

  @Test
  void aLogThatNoLongerLeadsStopsTheWriterWithTheStandbyError() throws Exception {
    InMemoryLog memory = new InMemoryLog();
    boolean[] leads = {true};
    StateLog log = new StateLog() {
      @Override
      public void append(byte[] record) {
        memory.append(record);
      }

      @Override
      public void commit() throws java.io.IOException {
        if (!leads[0]) {
          throw new NotLeaderException("another leads");
        }
        memory.commit();
      }

      @Override
      public long lastIndex() {
        return memory.lastIndex();
      }

      @Override
      public boolean writerSnapshots() {
        return false;
      }

      @Override
      public long bytesSinceSnapshot() {
        return 0;
      }

      @Override
      public PendingSnapshot startSnapshot(long index) {
        throw new UnsupportedOperationException();
      }

      @Override
      public void finishSnapshot(PendingSnapshot p) {}

      @Override
      public void close() {}
    };
    CompletableFuture<Void> demoted = new CompletableFuture<>();
    StateWriter writer = new StateWriter(TestStates.cluster(1, 4, 1000), log, null, () -> { });
    writer.onDemotion(() -> demoted.complete(null));
    try {
      assertThat(writer.submit(s -> Decision.of(1, job(s.nextJobId()))).get()).isEqualTo(1);
      leads[0] = false;
      CompletableFuture<Integer> refused = writer.submit(s -> Decision.of(2, job(s.nextJobId())));
      assertThatThrownBy(refused::get).hasCauseInstanceOf(SlurmException.class)
          .satisfies(e -> assertThat(((SlurmException) e.getCause()).error())
              .isEqualTo(org.corral.common.SlurmError.IN_STANDBY_MODE));
      demoted.get();
      assertThatThrownBy(() -> writer.submit(s -> Decision.none(3)).get())
          .hasCauseInstanceOf(SlurmException.class);
    } finally {
      writer.close();
    }
  }
}
