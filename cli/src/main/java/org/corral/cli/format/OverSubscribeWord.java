package org.corral.cli.format;

import org.corral.protocol.msg.JobInfo;

/** A job's OverSubscribe as squeue (%h) and scontrol show job print it. */
public final class OverSubscribeWord {
  private OverSubscribeWord() {}

  /** NO (--exclusive), USER (--exclusive=user, ExclusiveUser=YES), YES (-s, FORCE), else OK. */
  public static String of(JobInfo j) {
    if (j.getExclusive()) {
      return "NO";
    }
    if (j.getExclusiveUser()) {
      return "USER";
    }
    return j.getOversubscribe() ? "YES" : "OK";
  }
}
