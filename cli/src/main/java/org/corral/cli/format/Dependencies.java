package org.corral.cli.format;

import org.corral.protocol.msg.JobInfo;

/**
 * A job's dependency as squeue's %E and scontrol's Dependency= show it: each element with its
 * state, {@code afterok:12(unfulfilled),afterok:13(unfulfilled)} (Slurm's _depend_list2str;
 * {@code ?} joins the elements of an OR list), {@code (failed)} once it can never be satisfied.
 */
public final class Dependencies {
  private Dependencies() {}

  /** The shown dependency, "" when the job has none. */
  public static String shown(JobInfo j) {
    String dep = j.getDependency();
    if (dep.isEmpty() || dep.contains("(")) {
      return dep; // none, or already shown with its states
    }
    String state = "DependencyNeverSatisfied".equals(j.getStateReason()) ? "failed" : "unfulfilled";
    String sep = dep.contains("?") ? "?" : ",";
    StringBuilder out = new StringBuilder();
    for (String element : dep.split("[,?]")) {
      if (element.isEmpty()) {
        continue;
      }
      int colon = element.indexOf(':');
      if (colon < 0) { // singleton
        out.append(out.isEmpty() ? "" : sep).append(element).append('(').append(state).append(')');
        continue;
      }
      String type = element.substring(0, colon);
      for (String id : element.substring(colon + 1).split(":")) {
        out.append(out.isEmpty() ? "" : sep).append(type).append(':').append(id)
            .append('(').append(state).append(')');
      }
    }
    return out.toString();
  }
}
