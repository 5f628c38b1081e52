package org.corral.dbd;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.common.config.ConfigException;
import org.corral.common.Version;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.msg.ConfigEntry;
import org.corral.protocol.msg.ConfigReply;

/**
 * slurmdbd's settings as {@code sacctmgr show configuration} lists them under "SlurmDBD
 * configuration:": the keys and their order as the reference Slurm 22.05 printed them, each with
 * the value this slurmdbd runs with (what slurmdbd.conf says, else Corral's default; settings
 * Corral has no use for keep the reference's "(null)", "No" or "NONE").
 */
final class DbdSettings {
  private DbdSettings() {}

  static ConfigReply of(DbdConfig cfg, Instant boot, String slurmUser, int slurmUid) throws ConfigException {
    List<String[]> kv = new ArrayList<>();
    kv.add(new String[] {"AllowNoDefAcct", yesNo(cfg, "AllowNoDefAcct")});
    kv.add(new String[] {"ArchiveDir", cfg.get("ArchiveDir").orElse("/tmp")});
    for (String a : List.of("ArchiveEvents", "ArchiveJobs", "ArchiveResvs")) {
      kv.add(new String[] {a, yesNo(cfg, a)});
    }
    kv.add(new String[] {"ArchiveScript", cfg.get("ArchiveScript").orElse("(null)")});
    for (String a : List.of("ArchiveSteps", "ArchiveSuspend", "ArchiveTXN", "ArchiveUsage")) {
      kv.add(new String[] {a, yesNo(cfg, a)});
    }
    kv.add(new String[] {"AuthAltTypes", "(null)"});
    kv.add(new String[] {"AuthAltParameters", "(null)"});
    kv.add(new String[] {"AuthInfo", "(null)"});
    kv.add(new String[] {"AuthType", cfg.get("AuthType").orElse("auth/munge")});
    kv.add(new String[] {"BOOT_TIME", time(boot)});
    kv.add(new String[] {"CommitDelay", "No"});
    kv.add(new String[] {"CommunicationParameters", "(null)"});
    kv.add(new String[] {"DbdAddr", cfg.dbdAddr()});
    kv.add(new String[] {"DbdBackupHost", cfg.get("DbdBackupHost").orElse("(null)")});
    kv.add(new String[] {"DbdHost", cfg.get("DbdHost").orElse("localhost")});
    kv.add(new String[] {"DbdPort", Integer.toString(cfg.port())});
    kv.add(new String[] {"DebugFlags", cfg.get("DebugFlags").orElse("(null)")});
    kv.add(new String[] {"DebugLevel", cfg.get("DebugLevel").orElse("info")});
    kv.add(new String[] {"DebugLevelSyslog", cfg.get("DebugLevelSyslog").orElse("(null)")});
    kv.add(new String[] {"DefaultQOS", cfg.get("DefaultQOS").orElse("(null)")});
    kv.add(new String[] {"LogFile", cfg.logFile().map(Object::toString).orElse("(null)")});
    kv.add(new String[] {"MaxQueryTimeRange", cfg.get("MaxQueryTimeRange").orElse("UNLIMITED")});
    kv.add(new String[] {"MessageTimeout", cfg.get("MessageTimeout").orElse("10") + " secs"});
    kv.add(new String[] {"Parameters", cfg.get("Parameters").orElse("(null)")});
    kv.add(new String[] {"PidFile", cfg.pidFile().toString()});
    kv.add(new String[] {"PluginDir", cfg.get("PluginDir").orElse("(null)")});
    kv.add(new String[] {"PrivateData", cfg.get("PrivateData").orElse("none")});
    for (String p : List.of("PurgeEventAfter", "PurgeJobAfter", "PurgeResvAfter", "PurgeStepAfter",
        "PurgeSuspendAfter", "PurgeTXNAfter", "PurgeUsageAfter")) {
      kv.add(new String[] {p, cfg.get(p).map(String::strip).orElse("NONE")});
    }
    kv.add(new String[] {"SLURMDBD_CONF", cfg.path().toString()});
    kv.add(new String[] {"SLURMDBD_VERSION", Version.NUMBER});
    kv.add(new String[] {"SlurmUser", slurmUser + "(" + slurmUid + ")"});
    kv.add(new String[] {"StorageBackupHost", cfg.get("StorageBackupHost").orElse("(null)")});
    kv.add(new String[] {"StorageHost", cfg.get("StorageHost").orElse("localhost")});
    kv.add(new String[] {"StorageLoc", cfg.get("StorageLoc").orElse(switch (cfg.storage()) {
      case SQLITE -> "/var/spool/slurmdbd/slurm_acct_db.sqlite";
      default -> "slurm_acct_db";
    })});
    kv.add(new String[] {"StorageParameters", cfg.get("StorageParameters").orElse("(null)")});
    kv.add(new String[] {"StoragePort", cfg.get("StoragePort").orElse(switch (cfg.storage()) {
      case SQLITE -> "0";
      case MYSQL -> "3306";
      case PGSQL -> "5432";
    })});
    kv.add(new String[] {"StorageType", switch (cfg.storage()) {
      case SQLITE -> "accounting_storage/sqlite";
      case MYSQL -> "accounting_storage/mysql";
      case PGSQL -> "accounting_storage/pgsql";
    }});
    kv.add(new String[] {"StorageUser", cfg.storageUser()});
    kv.add(new String[] {"TCPTimeout", cfg.get("TCPTimeout").orElse("2") + " secs"});
    kv.add(new String[] {"TrackWCKey", yesNo(cfg, "TrackWCKey")});
    kv.add(new String[] {"TrackSlurmctldDown", yesNo(cfg, "TrackSlurmctldDown")});
    ConfigReply.Builder b = ConfigReply.newBuilder();
    for (String[] e : kv) {
      b.addEntries(ConfigEntry.newBuilder().setKey(e[0]).setValue(e[1]));
    }
    return b.build();
  }

  private static String yesNo(DbdConfig cfg, String key) {
    String v = cfg.get(key).orElse("no").strip().toLowerCase(Locale.ROOT);
    return v.equals("yes") || v.equals("1") || v.equals("true") ? "Yes" : "No";
  }

  private static String time(Instant t) {
    return LocalDateTime.ofInstant(t, ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"));
  }
}
