package org.corral.cli.sacctmgr;

import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.Version;
import org.corral.common.config.AccountingConfig;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.ConfigEntry;

/**
 * {@code sacctmgr show configuration}: the accounting settings of the slurm.conf this command
 * reads, then slurmdbd's (its answer to a configuration request), in the reference Slurm 22.05's
 * layout: a dated first line, "KEY = VALUE" lines with the key padded to 22 columns, an empty line
 * and "SlurmDBD configuration:".
 */
final class Configuration {
  private Configuration() {}

  /** The client's section: keys in the reference's order, values from slurm.conf or Corral's defaults. */
  static List<ConfigEntry> local(SlurmConfig cfg, String slurmUserName, int slurmUid) {
    AccountingConfig acct = cfg.accounting();
    List<ConfigEntry> out = new ArrayList<>();
    add(out, "AccountingStorageBackupHost", cfg.shown(SlurmConfKeys.ACCOUNTING_STORAGE_BACKUP_HOST));
    add(out, "AccountingStorageHost", acct.enabled() ? acct.host() : cfg.shown(SlurmConfKeys.ACCOUNTING_STORAGE_HOST));
    add(out, "AccountingStorageParameters", cfg.shown(SlurmConfKeys.ACCOUNTING_STORAGE_PARAMETERS));
    add(out, "AccountingStoragePass", cfg.shown(SlurmConfKeys.ACCOUNTING_STORAGE_PASS));
    add(out, "AccountingStoragePort", Integer.toString(acct.port()));
    add(out, "AccountingStorageType", cfg.shown(SlurmConfKeys.ACCOUNTING_STORAGE_TYPE));
    add(out, "AccountingStorageUser", cfg.text(SlurmConfKeys.ACCOUNTING_STORAGE_USER).orElse("N/A"));
    add(out, "AuthType", cfg.authType());
    add(out, "MessageTimeout", cfg.shown(SlurmConfKeys.MESSAGE_TIMEOUT));
    add(out, "PluginDir", cfg.isSet(SlurmConfKeys.PLUGIN_DIR) ? cfg.value(SlurmConfKeys.PLUGIN_DIR) : "(null)");
    add(out, "PrivateData", cfg.shown(SlurmConfKeys.PRIVATE_DATA));
    add(out, "SlurmUserId", slurmUserName + "(" + slurmUid + ")");
    add(out, "SLURM_CONF", cfg.path().toString());
    add(out, "SLURM_VERSION", Version.NUMBER);
    add(out, "TCPTimeout", cfg.shown(SlurmConfKeys.TCP_TIMEOUT));
    add(out, "TrackWCKey", acct.trackWckey() ? "Yes" : "No");
    return out;
  }

  private static void add(List<ConfigEntry> out, String key, String value) {
    out.add(ConfigEntry.newBuilder().setKey(key).setValue(value).build());
  }

  static void print(PrintStream out, Instant now, List<ConfigEntry> local, List<ConfigEntry> dbd) {
    StringBuilder b = new StringBuilder("Configuration data as of ")
        .append(LocalDateTime.ofInstant(now, ZoneId.systemDefault())
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"))).append('\n');
    lines(b, local);
    b.append("\nSlurmDBD configuration:\n");
    lines(b, dbd);
    out.print(b);
  }

  private static void lines(StringBuilder b, List<ConfigEntry> entries) {
    for (ConfigEntry e : entries) {
      // the reference pads this one key a column further than the rest
      String key = e.getKey().equals("AccountingStorageBackupHost") ? e.getKey() + " " : e.getKey();
      b.append(String.format("%-22s = %s", key, e.getValue())).append('\n');
    }
  }
}
