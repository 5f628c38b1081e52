package org.corral.ctld.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.corral.common.PrivateFiles;
import org.corral.common.SlurmError;
import org.corral.common.config.SchedulingConfig;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.triggers.TriggerLoop;
import org.corral.ctld.triggers.TriggerTable;
import org.corral.common.config.SubmitLimits;
import org.corral.ctld.journal.JobIdHighWater;
import org.corral.ctld.metrics.MetricsEndpoint;
import org.corral.ctld.metrics.OutboxAge;
import org.corral.ctld.metrics.Timings;
import org.corral.ctld.journal.Journal;
import org.corral.ctld.journal.JournalCorruptException;
import org.corral.ctld.journal.LocalJournalLog;
import org.corral.ctld.journal.StateLog;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.ctld.nodes.NodeAgent;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.Credentials;
import org.corral.protocol.FrameLimits;
import org.corral.protocol.RpcServer;
import org.corral.protocol.SocketDirectory;
import org.corral.protocol.PeerLimits;
import org.corral.protocol.RpcServerConfig;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.audit.AuditLog;
import org.corral.protocol.auth.MungeAuth;
import org.corral.protocol.http.HttpHandler;
import org.corral.protocol.msg.PriorityWeights;
import org.corral.protocol.msg.Request;

/**
 * The running controller: recovers the state from StateSaveLocation, then wires the writer
 * thread, the scheduler, the housekeeper and the RPC server (TCP for daemons, a Unix socket
 * for local users) together.
 */
public final class Controller implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private final StateLog journal;
  private final StateWriter writer;
  private final SchedulerLoop scheduler;
  private final Housekeeper housekeeper;
  private final RpcServer server;
  private final AccountingShipper shipper;
  private final AssociationCache associations;
  private final AuditLog audit;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean closed;
  private TriggerLoop triggerLoop;

  private Controller(StateLog journal, StateWriter writer, SchedulerLoop scheduler,
      Housekeeper housekeeper, RpcServer server, AccountingShipper shipper, AssociationCache associations,
      AuditLog audit) {
    this.audit = audit;
    this.shipper = shipper;
    this.associations = associations;
    this.journal = journal;
    this.writer = writer;
    this.scheduler = scheduler;
    this.housekeeper = housekeeper;
    this.server = server;
  }

  public static Controller start(SlurmConfig cfg, Clock clock, RecoveryMode mode, boolean clearState,
      Duration nodeTimeout) throws IOException, JournalCorruptException {
    return start(cfg, clock, mode, clearState, false, nodeTimeout);
  }

  /**
   * @param recoverPartitions {@code slurmctld -R}: the partitions as last saved (scontrol
   *     create/update/delete partition included); without it slurm.conf's, as in Slurm
   */
  public static Controller start(SlurmConfig cfg, Clock clock, RecoveryMode mode, boolean clearState,
      boolean recoverPartitions, Duration nodeTimeout) throws IOException, JournalCorruptException {
    closeStateToOthers(cfg.stateSaveLocation(), ControllerAddress.unixSocket(cfg));
    Path stateDir = cfg.stateSaveLocation().resolve("journal");
    Path dataDir = cfg.stateSaveLocation().resolve("job_data");
    for (Path dir : List.of(stateDir, dataDir)) {
      if (clearState && Files.isDirectory(dir)) {
        try (var files = Files.walk(dir)) {
          for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
    Journal journal = Journal.open(stateDir, mode);
    journal.recovery().notes().forEach(n -> LOG.log(Level.WARNING, n));
    if (clearState) { // -c: a fresh start numbers from FirstJobId again, as Slurm's does
      JobIdHighWater.forget(cfg.stateSaveLocation());
    }
    JobIdHighWater highWater = JobIdHighWater.open(cfg.stateSaveLocation());
    ClusterState recovered = StateRecovery.recover(journal, (int) cfg.firstJobId());
    if (journal.recovery().mayHaveLostRecords() && recovered.nextJobId() < highWater.mark()) {
      // ids up to the mark may have been handed out by entries the journal lost: none is reused
      LOG.log(Level.WARNING, "job ids " + recovered.nextJobId() + "-" + (highWater.mark() - 1)
          + " may have been handed out before the journal's damaged tail; numbering goes on at "
          + highWater.mark());
      recovered = recovered.withNextJobIdAtLeast(highWater.mark());
    }
    LOG.log(Level.INFO, "Recovered state of " + recovered.jobs().size() + " jobs; next job id "
        + recovered.nextJobId());
    JobData jobData = JobData.open(dataDir);
    return serve(cfg, clock, new LocalJournalLog(journal), recovered, highWater, jobData, nodeTimeout,
        ControllerSeat.single(cfg), recoverPartitions);
  }

  /**
   * Serves from {@code recovered}, recording changes in {@code log}: what a controller alone does
   * after recovering its journal, and what a replicated controller does on becoming the leader.
   *
   * @param highWater the job id mark of a local journal; null where the log needs none
   */
  public static Controller serve(SlurmConfig cfg, Clock clock, StateLog log, ClusterState recovered,
      JobIdHighWater highWater, JobData jobData, Duration nodeTimeout, ControllerSeat seat) throws IOException {
    // a controller taking the lead keeps the cluster's partitions, as they were
    return serve(cfg, clock, log, recovered, highWater, jobData, nodeTimeout, seat, true);
  }

  private static Controller serve(SlurmConfig cfg, Clock clock, StateLog log, ClusterState recovered,
      JobIdHighWater highWater, JobData jobData, Duration nodeTimeout, ControllerSeat seat,
      boolean recoverPartitions) throws IOException {
    UserDirectory users = UserDirectory.system();
    int slurmUid = users.uid(cfg.slurmUser()).orElse(0);
    ClusterKey key = ClusterKey.load(cfg.path().resolveSibling("slurm.key"), slurmUid);
    Credentials creds = new Credentials(key, "slurmctld", clock);
    int orphans = jobData.recover(recovered);
    if (orphans > 0) {
      LOG.log(Level.INFO, "Removed " + orphans + " job script/environment files no job names");
    }

    SchedulerLoop[] sched = new SchedulerLoop[1];
    AccountingShipper[] shipper = new AccountingShipper[1];
    StateWriter writer = new StateWriter(recovered, log, highWater, () -> {
      if (sched[0] != null) {
        sched[0].trigger();
      }
      if (shipper[0] != null) {
        shipper[0].trigger();
      }
    });
    writer.keep(jobData);
    shipper[0] = new AccountingShipper(writer, cfg.clusterName(), cfg.accounting(), creds);
    long now = clock.instant().getEpochSecond();
    await(writer.submit(s -> Decision.of(null, new Command.LoadConfig(
        ConfiguredCluster.nodes(cfg), ConfiguredCluster.partitions(cfg), now))));
    await(writer.submit(s -> StartPartitions.decide(recovered.partitions(), recoverPartitions, s, now)));

    NodeAgent agent = new NodeAgent(creds, nodeTimeout);
    JobOrders orders = new JobOrders(agent, writer, cfg.clusterName(), cfg.killWait(), clock,
        NodeHookPolicy.of(cfg), jobData);
    Timings timings = new Timings();
    log.onCommit(timings::journalSync);
    ControllerStats stats = new ControllerStats(now, users, timings);
    OutboxAge outboxAge = new OutboxAge(recovered, clock::millis);
    AssociationCache associations = new AssociationCache(cfg.accounting(), cfg.clusterName(), creds,
        cfg.stateSaveLocation());
    writer.observe(stats.andThen(outboxAge));
    sched[0] = new SchedulerLoop(writer, orders, clock, cfg.scheduling(), stats, associations,
        cfg.stateSaveLocation().resolve("assoc_usage"), cfg.licenses(), preemptConfig(cfg));
    Authorizer auth = new Authorizer(slurmUid, associations::current, org.corral.common.config.PrivateData.of(cfg));
    NodeRequests nodes = new NodeRequests(clock, orders, cfg.returnToService(), slurmUid);
    StepOrders stepOrders = new StepOrders(agent, writer, orders, cfg.clusterName(), cfg.killWait(), clock);
    AllocationClients clients = AllocationClients.system();
    JobRequests jobs = new JobRequests(new SubmitPolicy(cfg), new AssocPolicy(associations), auth, users, clock,
        orders, stepOrders,
        cfg.maxJobId(), cfg.scheduling());
    jobs.useSubmitFilters(org.corral.ctld.submit.SubmitFilters.load(cfg));
    jobs.keys(SubmitKeys.of(recovered));
    StepRequests steps = new StepRequests(auth, clock, stepOrders);
    Housekeeper housekeeper = new Housekeeper(writer, orders, stepOrders, clients, clock, cfg.slurmdTimeout(),
        cfg.minJobAge(), gangSliceS(cfg), agent::ping);

    Controller[] self = new Controller[1];
    TriggerTable triggerTable = TriggerTable.load(cfg.stateSaveLocation());
    SuspendRequests suspensions = new SuspendRequests(auth, clock, orders,
        cfg.text(SlurmConfKeys.SCHEDULER_PARAMETERS).orElse(""));
    ControllerService service = new ControllerService(writer, jobs, suspensions, nodes, steps, clients,
        new NodeAdminRequests(auth, clock, orders), auth, seat, cfg.entries(),
        weights(cfg.scheduling()), stats, () -> self[0].close(), Confinement.load(cfg, agent, auth),
        new ShareRequests(sched[0]::shares, auth), new LicenseRequests(cfg.licenses()),
        RateLimiter.fromParameters(cfg.text(SlurmConfKeys.SLURMCTLD_PARAMETERS).orElse(""), clock::millis),
        new ReservationRequests(auth, clock, users, new AssocPolicy(associations)), jobData,
        new ConfigView(cfg, now, cfg.slurmUser() + "(" + slurmUid + ")"), new FileBcastRequests(agent, auth),
        new TriggerRequests(triggerTable, auth, users), new PartitionRequests(auth, clock));
    service.reconfiguration(new Reconfiguration(cfg, auth, clock, agent,
        next -> service.configView(new ConfigView(next, now, next.slurmUser() + "(" + slurmUid + ")"))));
    AuditLog audit = AuditLog.open(auditFile(cfg), "slurmctld", cfg.controllerHost(), clock);
    service.audit(audit);
    service.stateDisk(StateDiskRoom.of(cfg.stateSaveLocation()));
    RpcServer server = startServer(cfg, seat, creds, clock, service,
        metrics(cfg, writer, stats, timings, outboxAge, clock));
    // rl_enable: a user's new connections draw on a bucket of their own, as its RPCs do on theirs
    RateLimiter connections =
        RateLimiter.fromParameters(cfg.text(SlurmConfKeys.SLURMCTLD_PARAMETERS).orElse(""), clock::millis);
    if (connections != null) {
      server.gateConnections(connections::allow);
    }
    self[0] = new Controller(log, writer, sched[0], housekeeper, server, shipper[0], associations, audit);
    self[0].triggerLoop = new TriggerLoop(triggerTable, writer::current, clock);
    sched[0].trigger();
    return self[0];
  }

  /**
   * The RPC server of the controller in {@code seat}: TCP at its address, and its Unix socket;
   * {@code http} (may be null) answers the HTTP requests that reach the same port (metrics).
   */
  public static RpcServer startServer(SlurmConfig cfg, ControllerSeat seat, Credentials creds, Clock clock,
      org.corral.protocol.RequestHandler handler, HttpHandler http) throws IOException {
    SocketDirectory.ensure(seat.socket().getParent());
    PeerLimits peers = PeerLimits.DEFAULT.withParameters(
        cfg.text(SlurmConfKeys.SLURMCTLD_PARAMETERS).orElse(""));
    return RpcServer.start(new RpcServerConfig(seat.bindAddress(), cfg.slurmctldPort(), seat.socket(),
        64 << 20, Duration.ofMinutes(5), 4096, userFrames(cfg), peers), creds,
        MungeAuth.forAuthType(cfg.authType(), cfg.text(SlurmConfKeys.AUTH_INFO).orElse(null), clock), handler, http);
  }

  /** Stops serving when the log says this controller no longer leads (a replicated log's leader deposed). */
  public void onDemotion(Runnable r) {
    writer.onDemotion(r);
  }

  /**
   * Where the audit trail goes: SlurmctldParameters=audit_log=PATH (a Corral extension), else
   * slurmctld_audit.log beside SlurmctldLogFile, else in StateSaveLocation.
   */
  static Path auditFile(SlurmConfig cfg) {
    for (String p : cfg.text(SlurmConfKeys.SLURMCTLD_PARAMETERS).orElse("").split(",")) {
      if (p.trim().startsWith("audit_log=")) {
        return Path.of(p.trim().substring("audit_log=".length()));
      }
    }
    Path dir = cfg.slurmctldLogFile().map(f -> Path.of(f).toAbsolutePath().getParent())
        .orElse(cfg.stateSaveLocation());
    return dir.resolve("slurmctld_audit.log");
  }

  /** The HTTP metrics endpoints when MetricsType=metrics/openmetrics, else none (null). */
  private static HttpHandler metrics(SlurmConfig cfg, StateWriter writer, ControllerStats stats, Timings timings,
      OutboxAge outboxAge, Clock clock) {
    if (cfg.text(SlurmConfKeys.METRICS_TYPE).isEmpty()) {
      return null;
    }
    JwtTokens tokens = JwtTokens.of(cfg.entries(), clock);
    org.corral.common.config.PrivateData privateData = org.corral.common.config.PrivateData.of(cfg);
    return MetricsEndpoint.of(writer::current, () -> stats.snapshot(writer.current(), clock.instant().getEpochSecond()),
        timings, outboxAge, stats::userName, privateData.any() ? privateData.toString() : null,
        cfg.text(SlurmConfKeys.METRICS_PARAMETERS).orElse(null),
        Set.copyOf(cfg.value(SlurmConfKeys.METRICS_AUTH_USERS)), cfg.slurmUser(), tokens::verify);
  }

  /**
   * StateSaveLocation holds every job's script and environment: SlurmUser's alone (files 0600,
   * directories 0700). What an earlier version or an administrator left open is closed here,
   * each named in a warning.
   */
  public static void closeStateToOthers(Path state, Path socket) throws IOException {
    Files.createDirectories(state);
    // users reach the socket through its directories: when it lies under the state, those stay
    boolean socketInside = socket.toAbsolutePath().startsWith(state.toAbsolutePath());
    for (Path opened : PrivateFiles.closeTree(state, !socketInside)) {
      LOG.log(Level.WARNING, "StateSaveLocation: " + opened + " was open to other users: closed");
    }
  }

  /**
   * What a user may send: requests that carry a script or an environment up to a submission's
   * limits (max_script_size and the environment's), sbcast's blocks a little over 4 MiB, anything else 1 MiB.
   */
  private static FrameLimits userFrames(SlurmConfig cfg) throws IOException {
    int submission;
    try {
      submission = SubmitLimits.of(cfg.text(SlurmConfKeys.SCHEDULER_PARAMETERS).orElse("")).requestBytes();
    } catch (IllegalArgumentException e) {
      throw new IOException(cfg.path() + ": " + e.getMessage(), e);
    }
    return FrameLimits.DEFAULT
        .withUserType(Request.SUBMIT_JOB_FIELD_NUMBER, submission, SlurmError.PATHNAME_TOO_LONG)
        .withUserType(Request.CREATE_STEP_FIELD_NUMBER, submission, SlurmError.PATHNAME_TOO_LONG)
        .withUserType(Request.ON_BEHALF_FIELD_NUMBER, submission)
        // sbcast's blocks: 4 MiB of data and their path
        .withUserType(Request.FILE_BCAST_FIELD_NUMBER, (4 << 20) + (64 << 10));
  }

  private static org.corral.common.config.PreemptConfig preemptConfig(SlurmConfig cfg) throws IOException {
    try {
      return org.corral.common.config.PreemptConfig.of(cfg);
    } catch (org.corral.common.config.ConfigException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** SchedulerTimeSlice when PreemptMode has GANG, else 0 (no time-slicing). */
  private static long gangSliceS(SlurmConfig cfg) throws IOException {
    try {
      return preemptConfig(cfg).gang() ? org.corral.common.config.PreemptConfig.timeSliceS(cfg) : 0;
    } catch (org.corral.common.config.ConfigException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static PriorityWeights weights(SchedulingConfig s) {
    SchedulingConfig.Weights w = s.weights();
    return PriorityWeights.newBuilder().setMultifactor(s.multifactor()).setAge((int) w.age())
        .setAssoc((int) w.assoc()).setFairshare((int) w.fairshare()).setJobSize((int) w.jobSize())
        .setPartition((int) w.partition()).setQos((int) w.qos()).putAllTres(w.tres()).build();
  }

  private static void await(java.util.concurrent.Future<?> f) throws IOException {
    try {
      f.get();
    } catch (ExecutionException e) {
      throw new IOException("controller start-up failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  public ClusterState state() {
    return writer.current();
  }

  public int tcpPort() {
    return server.tcpPort();
  }

  public void awaitShutdown() {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether this controller was shut down (scontrol shutdown, or its owner). */
  public boolean isClosed() {
    return closed;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.log(Level.INFO, "slurmctld shutting down");
    server.close();
    scheduler.close();
    housekeeper.close();
    if (triggerLoop != null) {
      triggerLoop.close();
    }
    shipper.close();
    associations.close();
    writer.close();
    audit.close();
    try {
      journal.close();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "closing journal: " + e);
    }
    stopped.countDown();
  }
}
