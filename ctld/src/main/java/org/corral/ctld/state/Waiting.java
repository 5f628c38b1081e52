package org.corral.ctld.state;

/**
 * Why a pending job waits and, when backfill planned it, when and where it is expected to start
 * (squeue --start: START_TIME and SCHEDNODES).
 *
 * @param expectedStart epoch seconds, 0 when not planned
 * @param schedNodes the planned nodes as a hostlist, "" when not planned
 */
public record Waiting(String reason, long expectedStart, String schedNodes) {
  public static Waiting because(String reason) {
    return new Waiting(reason, 0, "");
  }
}
