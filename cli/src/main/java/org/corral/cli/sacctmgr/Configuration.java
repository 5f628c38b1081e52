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
    add(out, "AccountingStorageBackupHost", cfg.get("AccountingStorageBackupHost").orElse("(null)"));
    add(out, "AccountingStorageHost", acct.enabled() ? acct.host() : cfg.get("AccountingStorageHost").orElse("(null)"));
    add(out, "AccountingStorageParameters", cfg.get("AccountingStorageParameters").orElse("(null)"));
    add(out, "AccountingStoragePass", cfg.get("AccountingStoragePass").orElse("(null)"));
    add(out, "AccountingStoragePort", Integer.toString(acct.port()));
    add(out, "AccountingStorageType", cfg.get("AccountingStorageType")
        .orElse(acct.enabled() ? "accounting_storage/slurmdbd" : "accounting_storage/none"));
    add(out, "AccountingStorageUser", cfg.get("AccountingStorageUser").orElse("N/A"));
    add(out, "AuthType", cfg.authType());
    add(out, "MessageTimeout", cfg.get("MessageTimeout").orElse("10") + " sec");
    add(out, "PluginDir", cfg.get("PluginDir").orElse("(null)"));
    add(out, "PrivateData", cfg.get("PrivateData").orElse("none"));
    add(out, "SlurmUserId", slurmUserName + "(" + slurmUid + ")");
    add(out, "SLURM_CONF", cfg.path().toString());
    add(out, "SLURM_VERSION", Version.NUMBER);
    add(out, "TCPTimeout", cfg.get("TCPTimeout").orElse("2") + " sec");
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
