package org.corral.cli.squeue;

import java.time.ZoneId;
import org.corral.protocol.msg.StepInfo;

/** A step as squeue -s prints it: the record plus the moment and zone the listing is for. */
record StepRow(StepInfo step, long now, ZoneId zone) {
  long elapsed() {
    return step.getStartTime() <= 0 ? 0 : Math.max(0, now - step.getStartTime());
  }
}
