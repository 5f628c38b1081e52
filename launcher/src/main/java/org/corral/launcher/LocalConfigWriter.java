package org.corral.launcher;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.common.Hostlist;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfig;

/**
 * Writes DIR/slurm.conf for a local cluster: a plain slurm.conf a user can read and edit. With
 * --config, the given file is copied and what a one-host cluster needs is added where the file is
 * silent: ports from the port base, paths under DIR, a distinct port and a local address per node.
 */
final class LocalConfigWriter {
  private static final Pattern NODE_LINE = Pattern.compile("^\\s*NodeName\\s*=\\s*(\\S+)(.*)$",
      Pattern.CASE_INSENSITIVE);

  /** How a slurm.conf written from the user's file begins. */
  private static final String FROM_FILE = "# Written by `corral up --config ";

  private LocalConfigWriter() {}

  /** Whether {@code conf} was written from a slurm.conf given with --config. */
  static boolean fromGivenFile(Path conf) throws IOException {
    try (var lines = Files.lines(conf)) {
      return lines.findFirst().map(l -> l.startsWith(FROM_FILE)).orElse(false);
    }
  }

  static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName().split("\\.")[0];
    } catch (IOException e) {
      return "localhost";
    }
  }

  /** The default cluster: N nodes n1..nN of C CPUs and M MB, one partition `debug`. */
  static String defaultConfig(ClusterOptions o) {
    String host = hostName();
    Path d = o.dir();
    String nodes = o.nodes() == 1 ? "n1" : "n[1-" + o.nodes() + "]";
    String ports = o.nodes() == 1 ? String.valueOf(o.nodePort(1))
        : o.nodePort(1) + "-" + o.nodePort(o.nodes());
    return """
        # A local Corral cluster, written by `corral up`. Edit it, then `corral down` and
        # `corral up --dir %1$s` to restart with the change.
        ClusterName=corral
        SlurmctldHost=%2$s(127.0.0.1)
        SlurmctldPort=%3$d
        SlurmdPort=%4$d
        SlurmUser=root
        AuthType=auth/slurm
        StateSaveLocation=%1$s/state
        SlurmdSpoolDir=%1$s/spool/%%n
        SlurmctldPidFile=%1$s/slurmctld.pid
        SlurmdPidFile=%1$s/slurmd-%%n.pid
        SlurmctldLogFile=%1$s/log/slurmctld.log
        SlurmdLogFile=%1$s/log/slurmd-%%n.log
        AccountingStorageType=accounting_storage/slurmdbd
        AccountingStorageHost=127.0.0.1
        AccountingStoragePort=%9$d
        JobAcctGatherType=jobacct_gather/linux
        ProctrackType=proctrack/cgroup
        SchedulerType=sched/backfill
        PriorityType=priority/multifactor
        SelectType=select/cons_tres
        SelectTypeParameters=CR_Core_Memory
        DefMemPerCPU=100
        SlurmdTimeout=30
        ReturnToService=2
        KillWait=10
        MinJobAge=300
        MaxJobCount=200000
        NodeName=%5$s NodeHostname=%2$s NodeAddr=127.0.0.1 Port=%6$s CPUs=%7$d RealMemory=%8$d State=UNKNOWN
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(d, host, o.controllerPort(), o.controllerPort() + 1, nodes, ports, o.cpus(),
        o.memoryMb(), o.dbdPort());
  }

  /** The given slurm.conf, completed for this host; the files read beside it (gres.conf, cgroup.conf, job_submit.lua, plugstack.conf, oci.conf) are copied too. */
  static String fromFile(ClusterOptions o) throws IOException, ConfigException {
    Path src = o.config();
    SlurmConfig given = SlurmConfig.load(src);
    List<String> out = new ArrayList<>();
    out.add(FROM_FILE + src + "`: that file, with what a one-host");
    out.add("# cluster needs added where it is silent (ports, paths under " + o.dir() + ", node ports).");
    int nextPort = 1;
    for (String line : Files.readAllLines(src)) {
      Matcher m = NODE_LINE.matcher(line);
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.trim().startsWith("include ")) {
        String target = line.trim().substring(8).trim();
        out.add("Include " + src.resolveSibling(target).toAbsolutePath());
        continue;
      }
      if (m.matches() && !m.group(1).equalsIgnoreCase("DEFAULT")) {
        int count = Hostlist.expand(m.group(1)).size();
        StringBuilder sb = new StringBuilder(line);
        if (!lower.matches(".*\\bport\\s*=.*")) {
          sb.append(" Port=").append(o.nodePort(nextPort));
          if (count > 1) {
            sb.append('-').append(o.nodePort(nextPort + count - 1));
          }
        }
        if (!lower.matches(".*\\bnodeaddr\\s*=.*")) {
          sb.append(" NodeAddr=127.0.0.1");
        }
        nextPort += count;
        out.add(sb.toString());
      } else {
        out.add(line);
      }
    }
    Path d = o.dir();
    addIfMissing(given, out, "SlurmctldHost", hostName() + "(127.0.0.1)");
    addIfMissing(given, out, "SlurmctldPort", String.valueOf(o.controllerPort()));
    addIfMissing(given, out, "SlurmdPort", String.valueOf(o.controllerPort() + 1));
    addIfMissing(given, out, "StateSaveLocation", d + "/state");
    addIfMissing(given, out, "SlurmdSpoolDir", d + "/spool/%n");
    addIfMissing(given, out, "SlurmctldPidFile", d + "/slurmctld.pid");
    addIfMissing(given, out, "SlurmdPidFile", d + "/slurmd-%n.pid");
    addIfMissing(given, out, "SlurmctldLogFile", d + "/log/slurmctld.log");
    addIfMissing(given, out, "SlurmdLogFile", d + "/log/slurmd-%n.log");
    addIfMissing(given, out, "AccountingStorageType", "accounting_storage/slurmdbd");
    addIfMissing(given, out, "AccountingStorageHost", "127.0.0.1");
    addIfMissing(given, out, "AccountingStoragePort", String.valueOf(o.dbdPort()));
    for (String extra : List.of("gres.conf", "cgroup.conf", "job_submit.lua", "plugstack.conf", "oci.conf")) {
      Path f = src.resolveSibling(extra);
      if (Files.isRegularFile(f)) {
        Files.copy(f, d.resolve(extra), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return String.join("\n", out) + "\n";
  }

  /**
   * DIR/slurmdbd.conf for the local cluster's slurmdbd: an embedded SQLite database under DIR,
   * no server needed. Mode 0600, as slurmdbd requires (it may hold a database password).
   */
  static void writeDbdConfig(Path file, ClusterOptions o) throws IOException {
    Path d = o.dir();
    String text = """
        # slurmdbd of the local Corral cluster, written by `corral up`. For MariaDB/MySQL or
        # PostgreSQL: StorageType=accounting_storage/mysql (or /pgsql), StorageHost, StoragePort,
        # StorageUser, StoragePass, StorageLoc=database name.
        DbdHost=localhost
        DbdAddr=127.0.0.1
        DbdPort=%2$d
        SlurmUser=root
        StorageType=accounting_storage/sqlite
        StorageLoc=%1$s/dbd/slurm_acct_db.sqlite
        PidFile=%1$s/slurmdbd.pid
        LogFile=%1$s/log/slurmdbd.log
        """.formatted(d, o.dbdPort());
    Files.deleteIfExists(file);
    Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }

  private static void addIfMissing(SlurmConfig given, List<String> out, String key, String value) {
    if (given.get(key).isEmpty() && !(key.equals("SlurmctldHost") && given.get("ControlMachine").isPresent())) {
      out.add(key + "=" + value);
    }
  }
}
