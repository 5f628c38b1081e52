package org.corral.cli.scontrol;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.corral.cli.format.SlurmTimes;
import org.corral.protocol.msg.ConfigEntry;

/**
 * scontrol show config: "Configuration data as of ...", the controller's lines as "Key = value" in
 * the order it sends them (Slurm's, from the table of slurm.conf keys; BOOT_TIME comes as epoch
 * seconds and is printed in this command's zone), then the "Cgroup Support Configuration:"
 * section when the controller has one (cgroup.conf, and the backend each node uses: CgroupPluginInUse).
 */
final class ConfigText {
  static final String CGROUP_PREFIX = "cgroup.conf:";

  private ConfigText() {}

  static String of(List<ConfigEntry> entries, long now, ZoneId zone) {
    List<ConfigEntry> main = new ArrayList<>();
    List<ConfigEntry> cgroup = new ArrayList<>();
    for (ConfigEntry e : entries) {
      (e.getKey().startsWith(CGROUP_PREFIX) ? cgroup : main).add(e);
    }
    StringBuilder out = new StringBuilder("Configuration data as of ")
        .append(SlurmTimes.iso(now, zone, "Unknown")).append('\n');
    for (ConfigEntry e : main) {
      String value = e.getValue();
      if (e.getKey().equals("BOOT_TIME")) {
        value = SlurmTimes.iso(Long.parseLong(value), zone, "Unknown");
      }
      line(out, e.getKey(), value);
    }
    if (!cgroup.isEmpty()) {
      out.append("\nCgroup Support Configuration:\n");
      cgroup.forEach(e -> line(out, e.getKey().substring(CGROUP_PREFIX.length()),
          e.getValue().isEmpty() ? "(null)" : e.getValue()));
    }
    return out.toString();
  }

  private static void line(StringBuilder out, String key, String value) {
    out.append(String.format("%-23s = %s%n", key, value));
  }
}
