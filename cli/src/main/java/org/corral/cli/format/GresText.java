package org.corral.cli.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.GresSlot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;

/**
 * Generic resources as Slurm 22.05's commands print them: a node's Gres ({@code gpu:2(S:0-3),nic:1},
 * the sockets of the cores close to them), GresUsed ({@code gpu:(null):2(IDX:0-1),nic:0}) and a
 * job's per node GRES ({@code gpu:tesla:2(IDX:0-1)}).
 */
public final class GresText {
  private GresText() {}

  /** sinfo %G, scontrol's Gres=: "(null)" when the node has none. */
  public static String node(NodeInfo n) {
    if (n.getGresSlotsCount() == 0) {
      return n.getGres().isEmpty() ? "(null)" : n.getGres();
    }
    List<String> out = new ArrayList<>();
    List<Map.Entry<String, List<GresSlot>>> groups = new ArrayList<>(byNameAndType(n.getGresSlotsList()).entrySet());
    List<String> configured = new ArrayList<>(); // in the order of the node's Gres=, as Slurm lists them
    for (String item : n.getGres().split(",")) {
      configured.add(item.split(":")[0].trim());
    }
    groups.sort(java.util.Comparator.comparingInt(e -> {
      int i = configured.indexOf(e.getValue().get(0).getName());
      return i < 0 ? Integer.MAX_VALUE : i;
    }));
    for (Map.Entry<String, List<GresSlot>> e : groups) {
      GresSlot first = e.getValue().get(0);
      long count = e.getValue().stream().mapToLong(GresSlot::getCount).sum();
      TreeSet<Integer> sockets = new TreeSet<>();
      for (GresSlot s : e.getValue()) {
        sockets.addAll(sockets(s.getCores(), Math.max(1, n.getCoresPerSocket())));
      }
      out.add(first.getName() + (first.getType().isEmpty() ? "" : ":" + first.getType()) + ":" + count
          + (sockets.isEmpty() ? "" : "(S:" + Gres.ranges(new ArrayList<>(sockets)) + ")"));
    }
    return String.join(",", out);
  }

  /** scontrol -d's GresUsed=, sinfo's GresUsed: per name and type, device-backed ones with their indices. */
  public static String used(NodeInfo n) {
    if (n.getGresSlotsCount() == 0 && n.getGresTypesCount() == 0) {
      return "";
    }
    List<String> out = new ArrayList<>();
    Map<String, List<GresSlot>> groups = byNameAndType(n.getGresSlotsList());
    List<String> names = new ArrayList<>(n.getGresTypesList()); // each GresTypes name, those the node has not as 0
    for (GresSlot s : n.getGresSlotsList()) {
      if (!names.contains(s.getName())) {
        names.add(s.getName());
      }
    }
    for (String name : names) {
      if (groups.keySet().stream().noneMatch(k -> k.startsWith(name + "\0"))) {
        out.add(name + ":0");
      }
      usedOf(n, name, groups, out);
    }
    return String.join(",", out);
  }

  private static void usedOf(NodeInfo n, String name, Map<String, List<GresSlot>> groups, List<String> out) {
    for (Map.Entry<String, List<GresSlot>> e : groups.entrySet()) {
      if (!e.getKey().startsWith(name + "\0")) {
        continue;
      }
      GresSlot first = e.getValue().get(0);
      List<Integer> idx = new ArrayList<>();
      for (GresAlloc a : n.getGresUsedList()) {
        if (a.getName().equals(first.getName()) && a.getType().equals(first.getType())) {
          idx.addAll(a.getIndicesList());
        }
      }
      idx.sort(null);
      boolean files = e.getValue().stream().anyMatch(s -> s.getFilesCount() > 0);
      List<Integer> shown = first.getName().equals("shard") // a shard's IDX: its GPU's
          ? Gres.gpuIndicesOf(n.getGresSlotsList(), first.getName(), idx) : idx;
      if (files) {
        out.add(first.getName() + ":" + (first.getType().isEmpty() ? "(null)" : first.getType()) + ":"
            + idx.size() + "(IDX:" + Gres.ranges(shown) + ")");
      } else {
        out.add(first.getName() + (first.getType().isEmpty() ? "" : ":" + first.getType()) + ":" + idx.size());
      }
    }
  }

  /** A job's generic resources on one node, for scontrol -d: {@code gpu:2(IDX:0-1)}; "" when none. */
  public static String onNode(NodeAllocation a) {
    return Gres.onNode(a);
  }

  /** scontrol -d's JOB_GRES=: the job's generic resources over all its nodes ({@code gpu:tesla:2}); "" when none. */
  public static String job(JobInfo j) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (NodeAllocation a : j.getAllocationList()) {
      for (GresAlloc g : a.getGresList()) {
        counts.merge(g.getName() + (g.getType().isEmpty() ? "" : ":" + g.getType()), g.getIndicesCount(), Integer::sum);
      }
    }
    List<String> out = new ArrayList<>();
    counts.forEach((k, v) -> out.add(k + ":" + v));
    return String.join(",", out);
  }

  private static Map<String, List<GresSlot>> byNameAndType(List<GresSlot> slots) {
    Map<String, List<GresSlot>> by = new LinkedHashMap<>();
    for (GresSlot s : slots) {
      by.computeIfAbsent(s.getName() + "\0" + s.getType(), k -> new ArrayList<>()).add(s);
    }
    return by;
  }

  /** The sockets of a core list ("0-3,8") with this many cores per socket. */
  private static List<Integer> sockets(String cores, int coresPerSocket) {
    List<Integer> out = new ArrayList<>();
    if (cores.isBlank()) {
      return out;
    }
    for (String part : cores.split(",")) {
      String[] r = part.trim().split("-");
      try {
        int lo = Integer.parseInt(r[0].trim());
        int hi = r.length > 1 ? Integer.parseInt(r[1].trim()) : lo;
        for (int c = lo; c <= hi; c++) {
          int s = c / coresPerSocket;
          if (!out.contains(s)) {
            out.add(s);
          }
        }
      } catch (NumberFormatException e) {
        return List.of();
      }
    }
    return out;
  }
}
