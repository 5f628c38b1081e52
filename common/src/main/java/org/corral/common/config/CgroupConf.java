package org.corral.common.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A parsed cgroup.conf (cgroup.conf(5)) with Slurm's defaults: plugin autodetect, mount point
 * /sys/fs/cgroup, no constraints, AllowedRAMSpace 100 (%), AllowedSwapSpace 0 (%), MaxRAMPercent
 * and MaxSwapPercent 100, MinRAMSpace 30 (MB). Unknown keys become warnings.
 */
public record CgroupConf(String cgroupPlugin, Path cgroupMountpoint, boolean constrainCores,
    boolean constrainRAMSpace, boolean constrainSwapSpace, boolean constrainDevices, double allowedRAMSpace,
    double allowedSwapSpace, double maxRAMPercent, double maxSwapPercent, long minRAMSpaceMb,
    boolean ignoreSystemd, List<String> warnings) {
  private static final Set<String> KNOWN = Set.of("cgroupautomount", "cgroupmountpoint", "cgroupplugin",
      "ignoresystemd", "ignoresystemdonfailure", "allowedkmemspace", "allowedramspace", "allowedswapspace",
      "constraincores", "constraindevices", "constrainkmemspace", "constrainramspace", "constrainswapspace",
      "maxrampercent", "maxswappercent", "maxkmempercent", "memoryswappiness", "minkmemspace", "minramspace",
      "taskaffinity", "cgroupreleaseagentdir");

  public CgroupConf {
    warnings = List.copyOf(warnings);
  }

  /** The configuration when there is no cgroup.conf. */
  public static CgroupConf defaults() {
    return new CgroupConf("autodetect", Path.of("/sys/fs/cgroup"), false, false, false, false, 100, 0, 100, 100,
        30, false, List.of());
  }

  public static CgroupConf load(Path file) throws ConfigException {
    return from(ConfReader.read(file));
  }

  public static CgroupConf parse(String text, Path nominalPath) throws ConfigException {
    return from(ConfReader.parse(text, nominalPath));
  }

  private static CgroupConf from(List<ConfLine> lines) throws ConfigException {
    Map<String, ConfLine> byKey = new HashMap<>();
    List<String> warnings = new ArrayList<>();
    for (ConfLine line : lines) {
      for (ConfPair p : line.pairs()) {
        String k = p.key().toLowerCase(Locale.ROOT);
        if (!KNOWN.contains(k)) {
          warnings.add(SlurmConfig.where(line) + ": unknown key " + p.key());
        }
        byKey.put(k, new ConfLine(line.file(), line.line(), List.of(p)));
      }
    }
    Values v = new Values(byKey);
    CgroupConf d = defaults();
    String plugin = byKey.containsKey("cgroupplugin")
        ? ConfValues.oneOf(byKey.get("cgroupplugin"), "CgroupPlugin", byKey.get("cgroupplugin").firstValue(),
            "CGROUP/V1", "CGROUP/V2", "AUTODETECT").toLowerCase(Locale.ROOT)
        : d.cgroupPlugin();
    return new CgroupConf(plugin,
        Path.of(byKey.containsKey("cgroupmountpoint") ? byKey.get("cgroupmountpoint").firstValue() : "/sys/fs/cgroup"),
        v.bool("ConstrainCores", false), v.bool("ConstrainRAMSpace", false), v.bool("ConstrainSwapSpace", false),
        v.bool("ConstrainDevices", false), v.percent("AllowedRAMSpace", 100), v.percent("AllowedSwapSpace", 0),
        v.percent("MaxRAMPercent", 100), v.percent("MaxSwapPercent", 100), v.megabytes("MinRAMSpace", 30),
        v.bool("IgnoreSystemd", false), warnings);
  }

  /** Typed lookups with defaults. */
  private record Values(Map<String, ConfLine> byKey) {
    boolean bool(String key, boolean dflt) throws ConfigException {
      ConfLine l = byKey.get(key.toLowerCase(Locale.ROOT));
      return l == null ? dflt : ConfValues.bool(l, key, l.firstValue());
    }

    double percent(String key, double dflt) throws ConfigException {
      ConfLine l = byKey.get(key.toLowerCase(Locale.ROOT));
      if (l == null) {
        return dflt;
      }
      try {
        double d = Double.parseDouble(l.firstValue().trim());
        if (d >= 0 && d <= 100_000 && !Double.isNaN(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw l.invalid(key, l.firstValue());
    }

    long megabytes(String key, long dflt) throws ConfigException {
      ConfLine l = byKey.get(key.toLowerCase(Locale.ROOT));
      return l == null ? dflt : ConfValues.megabytes(l, key, l.firstValue());
    }
  }
}
