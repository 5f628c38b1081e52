package org.corral.ctld.sched.priority;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fair-share factors for users who all hold an equal share under one account (the tree Corral
 * has until accounting supplies associations). Fair Tree (Slurm's default) ranks users by level
 * fairshare S/U, shares over usage: the user with the least usage for their shares gets 1.0, the
 * one with the most gets 1/N, equal ones the same. Classic fairshare (PriorityFlags=NO_FAIR_TREE)
 * is 2^(-U/S).
 */
public final class FairShare {
  private FairShare() {}

  /** Each user's factor; {@code usage} holds every user to rank (zero when unused). */
  public static Map<String, Double> factors(Map<String, Double> usage, boolean fairTree) {
    Map<String, Double> out = new HashMap<>();
    int n = usage.size();
    if (n == 0) {
      return out;
    }
    double total = usage.values().stream().mapToDouble(Double::doubleValue).sum();
    double share = 1.0 / n;
    if (!fairTree) {
      usage.forEach((user, u) -> out.put(user, Math.pow(2, -(total > 0 ? u / total : 0) / share)));
      return out;
    }
    List<Map.Entry<String, Double>> byLevel = new ArrayList<>(usage.entrySet());
    byLevel.sort(Map.Entry.comparingByValue(java.util.Comparator.reverseOrder())); // most used first
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && byLevel.get(j + 1).getValue().equals(byLevel.get(i).getValue())) {
        j++;
      }
      double factor = (double) (j + 1) / n; // ties share the higher rank
      for (int k = i; k <= j; k++) {
        out.put(byLevel.get(k).getKey(), factor);
      }
      i = j + 1;
    }
    return out;
  }

  /** Every user in {@code users} with their usage (0 when none). */
  public static Map<String, Double> withUsers(Collection<String> users, Map<String, Double> usage) {
    Map<String, Double> all = new HashMap<>(usage);
    users.forEach(u -> all.putIfAbsent(u, 0.0));
    return all;
  }
}
