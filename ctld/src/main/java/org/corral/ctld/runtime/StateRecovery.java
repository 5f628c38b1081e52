package org.corral.ctld.runtime;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import org.corral.ctld.journal.Journal;
import org.corral.ctld.journal.JournalEntry;
import org.corral.ctld.journal.Recovery;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.CommandCodec;
import org.corral.ctld.state.SnapshotCodec;
import org.corral.ctld.state.StateMachine;

/** Rebuilds the state after a start: the newest snapshot, then every later journal entry. */
public final class StateRecovery {
  private StateRecovery() {}

  public static ClusterState recover(Journal journal, int firstJobId) throws IOException {
    Recovery r = journal.recovery();
    ClusterState s = ClusterState.empty(firstJobId);
    if (r.snapshot().isPresent()) {
      s = SnapshotCodec.decode(r.snapshot().get());
    }
    for (JournalEntry e : r.entries()) {
      try {
        s = StateMachine.apply(s, CommandCodec.decode(e.data()));
      } catch (InvalidProtocolBufferException ex) {
        throw new IOException("journal entry " + e.index() + " cannot be read: " + ex.getMessage(), ex);
      }
    }
    if (s.nextJobId() < firstJobId) {
      s = s.withNextJobIdAtLeast(firstJobId);
    }
    return s;
  }
}
