package org.corral.cli.sbatch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.cli.format.LocalCluster;

/**
 * sbatch -M/--clusters: the cluster the job goes to, which sbatch then names after the job id
 * ("Submitted batch job 12 on cluster c1", --parsable "12;c1"). Corral knows one cluster, its
 * own (slurm.conf's ClusterName); other names are refused as Slurm refuses clusters its database
 * does not know, and the job goes to the local one if the list names it.
 */
final class WorkingCluster {
  private WorkingCluster() {}

  /** The cluster chosen; each unknown name is reported on {@code err} first. */
  static String choose(String list, Map<String, String> env, PrintStream err) throws SbatchFailure {
    List<String> local = LocalCluster.of(env);
    String chosen = null;
    List<String> unknown = new ArrayList<>();
    for (String name : list.split(",")) {
      if (name.isEmpty()) {
        continue;
      }
      if (!local.isEmpty() && local.get(0).equalsIgnoreCase(name)) {
        chosen = local.get(0).toLowerCase(Locale.ROOT);
      } else {
        unknown.add(name);
      }
    }
    for (String name : unknown) {
      err.println("sbatch: error: No cluster '" + name + "' known by database.");
    }
    if (chosen == null) {
      throw SbatchFailure.error("'" + list + "' can't be reached now, or it is an invalid entry for --cluster.  Use"
          + " 'sacctmgr list clusters' to see available clusters.");
    }
    return chosen;
  }
}
