package org.corral.slurmd.cgroup;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.corral.common.config.SlurmConfig;

/**
 * Where one node daemon's cgroups sit: {@code <cluster>/slurm_<node>} in each hierarchy.
 *
 * <p>Slurm names a node's tree {@code slurm_<node>} (its multiple-slurmd layout), which is
 * enough where a host runs one cluster. Corral runs several clusters on one host (`corral up`
 * beside another, test suites side by side), all naming their nodes n1..nN: keyed by node alone,
 * one cluster's slurmd removed another's directories when it stopped, and the other's next jobs
 * could not be confined. So the node's Slurm-shaped tree goes under a directory of its cluster,
 * named after ClusterName and a digest of where the cluster's controller keeps its state
 * (its address, SlurmctldPort and StateSaveLocation): two clusters on one host differ in at
 * least one of these (two controllers cannot share a port on one address, nor a state
 * directory), and a cluster keeps the same directory over restarts, so a restarted slurmd finds
 * the scopes of the jobs its predecessor left.
 *
 * @param cluster the cluster's directory name, e.g. {@code corral-1f3a9c0b}
 * @param node the node's name (slurmd -N)
 */
public record NodeCgroupName(String cluster, String node) {
  private static final int DIGEST_BYTES = 4;

  public NodeCgroupName {
    if (!cluster.matches("[A-Za-z0-9._-]{1,80}") || cluster.startsWith(".")) {
      throw new IllegalArgumentException("not a cgroup directory name: " + cluster);
    }
  }

  /** The name of {@code node}'s tree in the cluster {@code cfg} describes. */
  public static NodeCgroupName of(SlurmConfig cfg, String node) {
    String name = cfg.clusterName().isBlank() ? "cluster" : cfg.clusterName();
    String readable = name.replaceAll("[^A-Za-z0-9._-]", "_").replaceFirst("^\\.", "_");
    readable = readable.substring(0, Math.min(readable.length(), 60));
    String where = cfg.controllerAddr() + "\n" + cfg.slurmctldPort() + "\n" + cfg.stateSaveLocation();
    return new NodeCgroupName(readable + "-" + digest(where), node);
  }

  /** The cluster's directory under a hierarchy's parent cgroup. */
  Path clusterDir(Path parent) {
    return parent.resolve(cluster);
  }

  /** The node's directory under a hierarchy's parent cgroup. */
  Path nodeDir(Path parent) {
    return clusterDir(parent).resolve("slurm_" + node);
  }

  private static String digest(String text) {
    try {
      byte[] sum = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sum, 0, DIGEST_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
