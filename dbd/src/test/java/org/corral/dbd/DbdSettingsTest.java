package org.corral.dbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.corral.dbd.config.DbdConfig;
import org.corral.protocol.msg.ConfigEntry;
import org.corral.protocol.msg.ConfigReply;
import org.junit.jupiter.api.Test;

/**
 * What slurmdbd answers sacctmgr show configuration: the reference Slurm 22.05's keys in its
 * order (cli's golden cf_01_show_configuration), with the values of a slurmdbd.conf like the
 * reference's: those it sets, and the reference's defaults for the rest.
 */
class DbdSettingsTest {
  @Test
  void theReferencesKeysInItsOrderWithTheConfiguredValues() throws Exception {
    DbdConfig cfg = DbdConfig.parse("""
        AuthType=auth/munge
        DbdHost=localhost
        DbdAddr=localhost
        DebugLevel=error
        SlurmUser=root
        LogFile=/var/log/slurm/slurmdbd.log
        PidFile=/run/slurmdbd.pid
        PluginDir=/usr/lib/x86_64-linux-gnu/slurm-wlm
        StorageType=accounting_storage/mysql
        StorageHost=127.0.0.1
        StorageUser=root
        StorageLoc=slurm_acct_db
        ArchiveJobs=yes
        PurgeJobAfter=12months
        """, Path.of("/etc/slurm/slurmdbd.conf"));
    var boot = LocalDateTime.parse("2026-11-24T04:04:48").atZone(ZoneId.systemDefault()).toInstant();
    ConfigReply r = DbdSettings.of(cfg, boot, "root", 0);
    assertThat(r.getEntriesList()).extracting(ConfigEntry::getKey).containsExactly("AllowNoDefAcct", "ArchiveDir",
        "ArchiveEvents", "ArchiveJobs", "ArchiveResvs", "ArchiveScript", "ArchiveSteps", "ArchiveSuspend", "ArchiveTXN",
        "ArchiveUsage", "AuthAltTypes", "AuthAltParameters", "AuthInfo", "AuthType", "BOOT_TIME", "CommitDelay",
        "CommunicationParameters", "DbdAddr", "DbdBackupHost", "DbdHost", "DbdPort", "DebugFlags", "DebugLevel",
        "DebugLevelSyslog", "DefaultQOS", "LogFile", "MaxQueryTimeRange", "MessageTimeout", "Parameters", "PidFile",
        "PluginDir", "PrivateData", "PurgeEventAfter", "PurgeJobAfter", "PurgeResvAfter", "PurgeStepAfter",
        "PurgeSuspendAfter", "PurgeTXNAfter", "PurgeUsageAfter", "SLURMDBD_CONF", "SLURMDBD_VERSION", "SlurmUser",
        "StorageBackupHost", "StorageHost", "StorageLoc", "StorageParameters", "StoragePort", "StorageType",
        "StorageUser", "TCPTimeout", "TrackWCKey", "TrackSlurmctldDown");
    assertThat(r.getEntriesList()).extracting(e -> e.getKey() + "=" + e.getValue()).contains(
        "ArchiveDir=/tmp", "ArchiveEvents=No", "ArchiveJobs=Yes", "AuthType=auth/munge", "BOOT_TIME=2026-11-24T04:04:48",
        "DbdAddr=localhost", "DbdHost=localhost", "DbdPort=6819", "DebugLevel=error",
        "LogFile=/var/log/slurm/slurmdbd.log", "MessageTimeout=10 secs", "PidFile=/run/slurmdbd.pid",
        "PurgeEventAfter=NONE", "PurgeJobAfter=12months", "SLURMDBD_CONF=/etc/slurm/slurmdbd.conf",
        "SLURMDBD_VERSION=22.05.8", "SlurmUser=root(0)", "StorageHost=127.0.0.1", "StorageLoc=slurm_acct_db",
        "StoragePort=3306", "StorageType=accounting_storage/mysql", "StorageUser=root", "TCPTimeout=2 secs",
        "TrackWCKey=No");
  }
}
