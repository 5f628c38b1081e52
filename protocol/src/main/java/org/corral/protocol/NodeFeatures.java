package org.corral.protocol;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.NodeInfo;

/** A node's available and active features (Slurm's AvailableFeatures and ActiveFeatures). */
public final class NodeFeatures {
  private NodeFeatures() {}

  /** What jobs' constraints match: as set by ActiveFeatures=, else the available features. */
  public static List<String> active(NodeInfo n) {
    return n.getActiveFeaturesSet() ? n.getActiveFeaturesList() : n.getFeaturesList();
  }

  /** A comma list as scontrol takes it ({@code a,b}; empty: none). */
  public static List<String> parse(String csv) {
    List<String> out = new ArrayList<>();
    for (String f : csv.split(",")) {
      if (!f.isBlank()) {
        out.add(f.trim());
      }
    }
    return out;
  }
}
