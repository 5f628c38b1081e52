package org.corral.ctld.journal;

import java.io.IOException;
import java.io.OutputStream;

/** Writes a state into a snapshot's stream, which it must not close. */
@FunctionalInterface
public interface SnapshotBody {
  void writeTo(OutputStream out) throws IOException;
}
