package org.corral.ctld.state;

/** What an administrator (or the controller itself) does to a node's availability. */
public enum NodeAction {
  /** No new jobs; running ones finish (DRAINING, then DRAINED). */
  DRAIN,
  /** Out of service at once: its jobs are killed (requeued where allowed). */
  DOWN,
  /** Back in service: the drain flag and a DOWN state clear. */
  RESUME,
  /** The drain flag clears; a DOWN node stays DOWN. */
  UNDRAIN,
  /** Only the reason changes. */
  REASON_ONLY,
  /** Expected to fail soon: no new jobs, running ones go on (FAILING, then FAIL) until RESUME. */
  FAIL;

  /** The journal's number for it (stable: never reorder). */
  public int code() {
    return ordinal();
  }

  public static NodeAction ofCode(int code) {
    NodeAction[] all = values();
    return code >= 0 && code < all.length ? all[code] : REASON_ONLY;
  }
}
