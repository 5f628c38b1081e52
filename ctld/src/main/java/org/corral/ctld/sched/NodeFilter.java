package org.corral.ctld.sched;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.corral.common.Hostlist;
import org.corral.protocol.NodeFeatures;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeInfo;

/**
 * Which nodes a job may have: not those it excluded (-x), only those with the features its
 * constraint asks for (-C) among its active features, and all of those it named (-w). A constraint is OR-ed groups of
 * AND-ed features ("a&b|c"); brackets and counts ("[a|b]", "a*2") are read as plain OR and
 * plain features.
 */
public record NodeFilter(Set<String> required, Set<String> excluded, List<List<String>> anyOf) {
  static final NodeFilter NONE = new NodeFilter(Set.of(), Set.of(), List.of());

  static NodeFilter of(JobInfo j) {
    if (j.getReqNodes().isEmpty() && j.getExcNodes().isEmpty() && j.getFeatures().isEmpty()) {
      return NONE;
    }
    return new NodeFilter(names(j.getReqNodes()), names(j.getExcNodes()), parse(j.getFeatures()));
  }

  boolean allows(NodeInfo n) {
    if (excluded.contains(n.getName())) {
      return false;
    }
    if (anyOf.isEmpty()) {
      return true;
    }
    for (List<String> all : anyOf) {
      if (NodeFeatures.active(n).containsAll(all)) {
        return true;
      }
    }
    return false;
  }

  /** The constraint's feature names, for checking them at submission. */
  public static List<String> features(String constraint) {
    List<String> out = new ArrayList<>();
    parse(constraint).forEach(out::addAll);
    return out;
  }

  private static List<List<String>> parse(String constraint) {
    List<List<String>> groups = new ArrayList<>();
    if (constraint.isBlank()) {
      return groups;
    }
    for (String group : constraint.replace("[", "").replace("]", "").split("\\|")) {
      List<String> all = new ArrayList<>();
      for (String f : group.split("&")) {
        String name = f.trim();
        int star = name.indexOf('*');
        all.add(star >= 0 ? name.substring(0, star) : name);
      }
      groups.add(all);
    }
    return groups;
  }

  private static Set<String> names(String hostlist) {
    return hostlist.isEmpty() ? Set.of() : Set.copyOf(Hostlist.expand(hostlist));
  }
}
