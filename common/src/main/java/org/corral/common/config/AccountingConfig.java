package org.corral.common.config;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * slurm.conf's accounting settings: where slurmdbd is and what the controller enforces.
 *
 * @param enabled AccountingStorageType=accounting_storage/slurmdbd
 * @param host AccountingStorageHost (default: the controller's host)
 * @param port AccountingStoragePort (default 6819)
 * @param enforce AccountingStorageEnforce, lower case (associations, limits, qos, safe, wckeys, nojobs, nosteps)
 * @param trackWckey TrackWCKey=yes, or wckeys enforced (which sets it, as Slurm does): jobs carry a wckey
 */
public record AccountingConfig(boolean enabled, String host, int port, Set<String> enforce, boolean trackWckey) {
  public static final int DEFAULT_PORT = 6819;
  public static final String SLURMDBD = "accounting_storage/slurmdbd";

  static AccountingConfig of(SlurmConfig cfg) throws ConfigException {
    String type = cfg.get("AccountingStorageType").orElse("accounting_storage/none").trim();
    boolean enabled = switch (type.toLowerCase(Locale.ROOT)) {
      case SLURMDBD -> true;
      case "accounting_storage/none", "" -> false;
      default -> throw new ConfigException(cfg.path(), 0, "AccountingStorageType",
          "unsupported value \"" + type + "\" (accounting_storage/slurmdbd or accounting_storage/none)", null);
    };
    int port = DEFAULT_PORT;
    String p = cfg.get("AccountingStoragePort").orElse("").trim();
    if (!p.isEmpty()) {
      try {
        port = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (port < 1 || port > 65535) {
        throw new ConfigException(cfg.path(), 0, "AccountingStoragePort", "invalid port \"" + p + "\"", null);
      }
    }
    Set<String> enforce = new TreeSet<>();
    for (String e : cfg.get("AccountingStorageEnforce").orElse("").split(",")) {
      String v = e.trim().toLowerCase(Locale.ROOT);
      if (!v.isEmpty() && !v.equals("none") && !v.equals("0")) {
        enforce.add(v);
      }
    }
    // Slurm: limits and qos imply associations, safe implies limits.
    if (enforce.contains("safe")) {
      enforce.add("limits");
    }
    if (enforce.contains("limits") || enforce.contains("qos")) {
      enforce.add("associations");
    }
    String host = cfg.get("AccountingStorageHost").orElse(cfg.controllerAddr());
    String track = cfg.get("TrackWCKey").orElse("no").trim().toLowerCase(Locale.ROOT);
    boolean trackWckey = track.equals("yes") || track.equals("1") || track.equals("true") || enforce.contains("wckeys");
    return new AccountingConfig(enabled, host, port, Set.copyOf(enforce), trackWckey);
  }
}
