package org.corral.common.config;

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
    boolean enabled = cfg.require(SlurmConfKeys.ACCOUNTING_STORAGE_TYPE).equalsIgnoreCase(SLURMDBD);
    Long port = cfg.require(SlurmConfKeys.ACCOUNTING_STORAGE_PORT);
    Set<String> enforce = new TreeSet<>();
    Set<String> given = cfg.value(SlurmConfKeys.ACCOUNTING_STORAGE_ENFORCE);
    if (given != null) {
      enforce.addAll(given);
    }
    // Slurm: limits and qos imply associations, safe implies limits.
    if (enforce.contains("safe")) {
      enforce.add("limits");
    }
    if (enforce.contains("limits") || enforce.contains("qos")) {
      enforce.add("associations");
    }
    String host = cfg.text(SlurmConfKeys.ACCOUNTING_STORAGE_HOST).orElse(cfg.controllerAddr());
    boolean trackWckey = cfg.value(SlurmConfKeys.TRACK_WCKEY) || enforce.contains("wckeys");
    return new AccountingConfig(enabled, host, port == null ? DEFAULT_PORT : port.intValue(), Set.copyOf(enforce),
        trackWckey);
  }
}
