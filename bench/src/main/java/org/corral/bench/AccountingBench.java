package org.corral.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.corral.dbd.Dbd;
import org.corral.dbd.config.DbdConfig;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.DbdAddress;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code AccountingBench sqlite|mysql JOBS}: job records ingested per second into slurmdbd's
 * storage (in batches of 1,000, as the controller ships them; each job arrives twice, as it
 * starts and as it ends), then sacct's query for all of them ({@code sacct -a})
 * through a running slurmdbd's socket, page by page: time to the first page and to the last.
 * mysql uses the MariaDB at 127.0.0.1:3306 (root) with a scratch database it drops afterwards.
 */
public final class AccountingBench {
  private static final int BATCH = 1000;
  private static final int PAGE = 5000;
  private static final long SPAN_S = Long.parseLong(env("BENCH_SPAN_S", "" + 365 * 86400));
  private static final long FIRST_SUBMIT = Long.parseLong(env("BENCH_FIRST_SUBMIT",
      "" + (System.currentTimeMillis() / 1000 - 2 * 86400 - SPAN_S - 8000)));
  /** sacct's -S: the day before the first submission. */
  private static final String SACCT_START = env("BENCH_SACCT_START",
      java.time.LocalDate.ofEpochDay(FIRST_SUBMIT / 86400 - 1).toString());

  private static String env(String name, String otherwise) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? otherwise : v;
  }

  public static void main(String[] args) throws Exception {
    String kind = args.length > 0 ? args[0] : "sqlite";
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    Path dir = Files.createTempDirectory("acct-bench");
    String db = "corral_bench_" + System.nanoTime();
    String storage = kind.equals("mysql")
        ? "StorageType=accounting_storage/mysql\nStorageHost=127.0.0.1\nStoragePort=3306\nStorageUser=root\nStorageLoc=" + db + "\n"
        : "StorageType=accounting_storage/sqlite\nStorageLoc=" + dir.resolve("acct.sqlite") + "\n";
    if (kind.equals("mysql")) {
      admin("CREATE DATABASE " + db);
    }
    try {
      Path conf = dir.resolve("slurmdbd.conf");
      Files.writeString(conf, "DbdAddr=127.0.0.1\nDbdPort=" + freePort() + "\nPidFile=" + dir.resolve("dbd.pid") + "\n" + storage);
      Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rw-------"));
      ClusterKey.generate(dir.resolve("slurm.key"));
      DbdConfig cfg = DbdConfig.load(conf);

      try (Database database = Database.open(cfg.storage(), cfg.jdbcUrl(), cfg.storageUser(), cfg.storagePass())) {
        JobStore store = new JobStore(database);
        long t0 = System.nanoTime();
        long eventId = 1;
        for (int first = 1; first <= jobs; first += BATCH) {
          List<AcctEvent> started = new ArrayList<>();
          List<AcctEvent> ended = new ArrayList<>();
          for (int id = first; id < first + BATCH && id <= jobs; id++) {
            started.add(AcctEvent.newBuilder().setEventId(eventId++).setJob(job(id, jobs, false)).build());
          }
          for (int id = first; id < first + BATCH && id <= jobs; id++) {
            ended.add(AcctEvent.newBuilder().setEventId(eventId++).setJob(job(id, jobs, true)).build());
          }
          store.store("bench", started);
          store.store("bench", ended);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%s: %d jobs, %d records in %.1f s: %.0f records/s%n", kind, jobs, 2L * jobs, s, 2 * jobs / s);
      }

      try (Dbd dbd = Dbd.start(cfg, cfg.port(), "bench", Clock.systemUTC())) {
        UnixSocketChannel ch = new UnixSocketChannel(DbdAddress.unixSocket(cfg.pidFile(), cfg.port()));
        for (int round = 0; round < 2; round++) { // the first warms the JIT
          long t0 = System.nanoTime();
          long first = 0;
          long count = 0;
          JobQueryRequest.Builder q = JobQueryRequest.newBuilder().setAllUsers(true).setPageSize(PAGE);
          while (true) {
            Response r = ch.call(Request.newBuilder().setJobQuery(q).build());
            JobQueryReply page = r.getJobQuery();
            if (first == 0) {
              first = System.nanoTime() - t0;
            }
            count += page.getJobsCount();
            if (!page.getMore()) {
              break;
            }
            org.corral.protocol.JobQueryPages.after(q, page);
          }
          System.out.printf("query all (round %d): %d jobs, first page %.0f ms, all %.2f s%n", round + 1, count,
              first / 1e6, (System.nanoTime() - t0) / 1e9);
        }
        Path sacct = Path.of("bin/sacct").toAbsolutePath();
        if (Files.isExecutable(sacct)) {
          timeSacct(sacct, dir, cfg.port());
        }
      }
    } finally {
      if (kind.equals("mysql")) {
        admin("DROP DATABASE IF EXISTS " + db);
      }
    }
  }

  /**
   * The real command, as a user types it: {@code sacct -a -S DAY -E now -X} (default fields,
   * then {@code -P}) over a slurm.conf naming this slurmdbd; time to its first line and to its
   * last, output counted and dropped.
   */
  private static void timeSacct(Path sacct, Path dir, int port) throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=bench\nSlurmctldHost=localhost\nSlurmctldPidFile=" + dir.resolve("ctld.pid")
        + "\nAccountingStorageType=accounting_storage/slurmdbd\nAccountingStoragePort=" + port
        + "\nNodeName=n1 CPUs=4\nPartitionName=debug Nodes=ALL Default=YES\n");
    for (String[] fields : new String[][] {{}, {"-P"}}) {
      java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(sacct.toString(), "-a", "-S",
          SACCT_START, "-E", "now", "-X"));
      cmd.addAll(java.util.List.of(fields));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
      pb.environment().put("SLURM_CONF", conf.toString());
      long t0 = System.nanoTime();
      Process p = pb.start();
      long first = -1;
      long lines = 0;
      try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))) {
        while (in.readLine() != null) {
          if (first < 0) {
            first = System.nanoTime() - t0;
          }
          lines++;
        }
      }
      p.waitFor();
      System.out.printf("sacct -a -S " + SACCT_START + " -E now -X %s: %d lines, first line %.0f ms, all %.2f s%n",
          String.join(" ", fields), lines, first / 1e6, (System.nanoTime() - t0) / 1e9);
    }
  }

  /**
   * Job {@code i} of {@code jobs}, the shape bench/reference/sacct-million.sh loads into the
   * reference Slurm's tables: id 1000000+i, submitted FIRST + i*SPAN/jobs (the environment's
   * BENCH_FIRST_SUBMIT and BENCH_SPAN_S; by default a year ending two days ago), started 0-599 s
   * later, ran 60-7259 s; 1..32 CPUs on one node (two every fourth job) of n0..n99; 1 in 20
   * FAILED (exit 1), 1 in 20 CANCELLED by root, 1 in 20 TIMEOUT, the rest COMPLETED; root/root.
   */
  private static AcctJob job(int i, int jobs, boolean ended) {
    long submit = FIRST_SUBMIT + (long) i * SPAN_S / jobs;
    long start = submit + i % 600;
    long end = start + 60 + i % 7200;
    int cpus = 1 << (i % 6);
    int nodes = i % 4 == 0 ? 2 : 1;
    String nodeList = nodes == 1 ? "n" + i % 100 : "n[" + i % 99 + "-" + (i % 99 + 1) + "]";
    JobState state = switch (i % 20) {
      case 0 -> JobState.FAILED;
      case 1 -> JobState.CANCELLED;
      case 2 -> JobState.TIMEOUT;
      default -> JobState.COMPLETED;
    };
    int exit = state == JobState.FAILED ? 256 : 0;
    AcctJob.Builder b = AcctJob.newBuilder().setJobId(1_000_000 + i).setName("job" + i).setUserId(0)
        .setUserName("root").setGroupId(0).setGroupName("root").setAccount("root").setPartition("debug")
        .setQos("normal").setState(ended ? state : JobState.RUNNING).setSubmitTime(submit).setEligibleTime(submit)
        .setStartTime(start).setNumCpus(cpus).setReqCpus(cpus).setNumNodes(nodes).setReqNodes(nodes).setNumTasks(1)
        .setNodes(nodeList).setWorkDir("/home/user/run").setReqMemMb(4000).setAllocMemMb(4000L * nodes)
        .setTimeLimitMin(180).setPriority(1);
    if (ended) {
      b.setEndTime(end).setExitStatus(exit);
      if (state == JobState.CANCELLED) {
        b.setCancelled(true).setCancelledBy(0);
      }
      b.addSteps(AcctStep.newBuilder().setStepId(0xfffffffb).setName("batch").setState(state).setStartTime(start)
          .setEndTime(end).setNodes(nodes == 1 ? nodeList : "n" + i % 99).setNumNodes(1).setNumTasks(1)
          .setNumCpus(cpus));
    }
    return b.build();
  }

  private static void admin(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/", "root", "");
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static int freePort() throws Exception {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
