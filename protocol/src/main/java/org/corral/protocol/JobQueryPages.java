package org.corral.protocol;

import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;

/** Paging through slurmdbd's job records: the next request starts where the last reply ended. */
public final class JobQueryPages {
  private JobQueryPages() {}

  /** Sets {@code next}'s cursor to the end of {@code reply} (which said there is more). */
  public static JobQueryRequest.Builder after(JobQueryRequest.Builder next, JobQueryReply reply) {
    return next.setAfterSubmitTime(reply.getNextSubmitTime()).setAfterArrayJobId(reply.getNextArrayJobId())
        .setAfterArrayTaskId(reply.getNextArrayTaskId()).setAfterJobId(reply.getNextJobId());
  }
}
