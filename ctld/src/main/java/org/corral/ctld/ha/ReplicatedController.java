package org.corral.ctld.ha;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.jobdata.JobData;
import org.corral.ctld.journal.StateLog;
import org.corral.ctld.runtime.Controller;
import org.corral.ctld.runtime.ControllerSeat;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcServer;
import org.corral.protocol.UserDirectory;

/**
 * One of several controllers (SlurmctldHost listed two or more times). It joins the controllers'
 * Raft group and keeps the committed state current; while another leads it stands by, answering
 * pings and telling every other request to try the next controller (Slurm's
 * ESLURM_IN_STANDBY_MODE, as a backup slurmctld does). Once the group elects it, it commits a
 * barrier (so that it has applied everything committed before) and serves as the one controller
 * does, over the replicated log, until it learns that another leads; then it stops serving and
 * stands by again. Nothing of its state outlives a lost leadership: it serves again from what the
 * group committed.
 */
public final class ReplicatedController implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  /** Ratis logs every setting and election at INFO: its warnings are what an administrator needs. */
  private static final java.util.logging.Logger RATIS_LOG = java.util.logging.Logger.getLogger("org.apache.ratis");
  private static final java.util.logging.Logger APPENDER_LOG =
      java.util.logging.Logger.getLogger("org.apache.ratis.grpc.server.GrpcLogAppender");

  private final SlurmConfig cfg;
  private final Clock clock;
  private final Duration nodeTimeout;
  private final ControllerGroup group;
  private final ControllerSeat seat;
  private final RaftServer server;
  private final ReplicatedState state;
  private final JobData jobData;
  private final Credentials creds;
  private final int slurmUid;
  private final RaftProperties properties;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Thread loop;
  private volatile boolean closed;
  private volatile Controller serving;

  private ReplicatedController(SlurmConfig cfg, Clock clock, Duration nodeTimeout, ControllerGroup group,
      RaftServer server, ReplicatedState state, JobData jobData, RaftProperties properties) throws IOException {
    this.cfg = cfg;
    this.clock = clock;
    this.nodeTimeout = nodeTimeout;
    this.group = group;
    this.seat = ControllerSeat.of(cfg, group.index());
    this.server = server;
    this.state = state;
    this.jobData = jobData;
    this.properties = properties;
    this.slurmUid = UserDirectory.system().uid(cfg.slurmUser()).orElse(0);
    this.creds = new Credentials(ClusterKey.load(org.corral.protocol.auth.SackKeys.keyFile(cfg.path(), System.getenv()), slurmUid), "slurmctld", clock);
    this.loop = Thread.ofPlatform().name("controller-role").start(this::run);
  }

  /** Joins the group as the controller {@code name} names (null: this host's). */
  public static ReplicatedController start(SlurmConfig cfg, Clock clock, String name, String hostName,
      Duration nodeTimeout) throws IOException {
    int index;
    try {
      index = ControllerGroup.indexOf(cfg, name, hostName);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    RATIS_LOG.setLevel(java.util.logging.Level.WARNING);
    APPENDER_LOG.setLevel(java.util.logging.Level.SEVERE); // a warning a second while a member is down
    ControllerGroup group = ControllerGroup.of(cfg, index);
    Controller.closeStateToOthers(cfg.stateSaveLocation(), ControllerSeat.of(cfg, index).socket());
    Files.createDirectories(group.dir());
    JobData jobData = JobData.open(group.dir().resolve("job_data"));
    ReplicatedState state = new ReplicatedState((int) cfg.firstJobId(), jobData);
    RaftProperties props = properties(group);
    RaftServer server = RaftServer.newBuilder()
        .setServerId(group.self().getId())
        .setGroup(group.raftGroup())
        .setStateMachine(state)
        .setProperties(props)
        .setOption(RaftStorage.StartupOption.RECOVER)
        .build();
    server.start();
    LOG.log(Level.INFO, "controller " + group.self().getId() + " (SlurmctldHost[" + index + "]) joined the group "
        + group.raftGroup().getPeers().stream().map(p -> p.getId() + "@" + p.getAddress()).toList());
    return new ReplicatedController(cfg, clock, nodeTimeout, group, server, state, jobData, props);
  }

  private static RaftProperties properties(ControllerGroup group) {
    RaftProperties p = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(p, List.of(group.dir().resolve("raft").toFile()));
    String address = group.self().getAddress();
    GrpcConfigKeys.Server.setHost(p, address.substring(0, address.lastIndexOf(':')));
    GrpcConfigKeys.Server.setPort(p, Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
    // A leader is missed after 1-2 s of silence: a takeover in about 2 s, without elections
    // started by a busy machine's pauses.
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(1000, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2000, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(5000, TimeUnit.MILLISECONDS));
    // An entry holds a decision batch or a job's script: up to tens of MiB.
    GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf("96MB"));
    RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf("80MB"));
    RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf("81MB"));
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf("64MB"));
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, 50_000);
    RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    return p;
  }

  private void run() {
    ReplicatedLog log = new ReplicatedLog(server, group);
    while (!closed) {
      try {
        RpcServer standby = Controller.startServer(cfg, seat, creds, clock,
            new StandbyService(seat, server, group, slurmUid, this::takeOver), null);
        try {
          awaitLeadership();
          if (closed) {
            return;
          }
          log.barrier(); // everything committed before this term is applied here now
        } finally {
          standby.close();
        }
        lead(log);
      } catch (StateLog.NotLeaderException e) {
        LOG.log(Level.INFO, "not the leader after all: " + e.getMessage());
      } catch (IOException | RuntimeException e) {
        if (closed) {
          return;
        }
        LOG.log(Level.WARNING, "controller role change failed, standing by again: " + e);
        sleep(500);
      }
    }
  }

  private void awaitLeadership() throws IOException {
    while (!closed && !(division().isLeader() && division().isLeaderReady())) {
      sleep(50);
    }
  }

  private org.apache.ratis.server.DivisionInfo division() throws IOException {
    return server.getDivision(group.raftGroup().getGroupId()).getInfo();
  }

  /** Serves until this controller no longer leads (or the controller is shut down). */
  private void lead(ReplicatedLog log) throws IOException {
    ReplicatedState.Applied applied = state.applied();
    LOG.log(Level.INFO, "controller " + group.self().getId() + " leads (term " + division().getCurrentTerm()
        + ", replicated index " + applied.index() + ", " + applied.state().jobs().size() + " jobs)");
    jobData.replicateTo(log::replicateBlob);
    CountDownLatch demoted = new CountDownLatch(1);
    Controller c = Controller.serve(cfg, clock, log, applied.state(), null, jobData, nodeTimeout, seat);
    serving = c;
    c.onDemotion(demoted::countDown);
    Thread shutdownWatch = Thread.ofVirtual().start(() -> {
      c.awaitShutdown();
      demoted.countDown();
    });
    try {
      while (!closed && demoted.getCount() > 0) {
        if (!division().isLeader()) {
          LOG.log(Level.WARNING, "controller " + group.self().getId() + " no longer leads (leader now "
              + division().getLeaderId() + "); standing by");
          break;
        }
        demoted.await(100, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      boolean shutdownAsked = c.isClosed();
      serving = null;
      jobData.replicateTo((h, b) -> { });
      c.close();
      shutdownWatch.interrupt();
      if (shutdownAsked && !closed) { // scontrol shutdown reached this controller: the process ends
        closed = true;
        stopped.countDown();
      }
    }
  }

  /** scontrol takeover sent here: asks the group to make this controller its leader. */
  private void takeOver() throws IOException {
    try (RaftClient client = RaftClient.newBuilder().setProperties(properties)
        .setRaftGroup(group.raftGroup()).build()) {
      var reply = client.admin().transferLeadership(group.self().getId(), 10_000);
      if (!reply.isSuccess()) {
        throw new IOException("leadership transfer failed: " + reply.getException());
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public void awaitShutdown() {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * What a controller's pid and log file names add: ".N" for backup N chosen with
   * {@code --controller} (controllers sharing a host), nothing for the primary or for a
   * controller found by its host name (each on a host of its own, files as Slurm names them).
   */
  public static String fileSuffix(SlurmConfig cfg, String name) {
    if (name == null) {
      return "";
    }
    try {
      int i = ControllerGroup.indexOf(cfg, name, shortHostName());
      return i == 0 ? "" : "." + i;
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** This host's name up to its first dot, which Slurm matches against SlurmctldHost. */
  public static String shortHostName() {
    try {
      String h = java.net.InetAddress.getLocalHost().getHostName();
      int dot = h.indexOf('.');
      return dot > 0 ? h.substring(0, dot) : h;
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  /** This controller's place in SlurmctldHost's order (0: the primary). */
  public int index() {
    return group.index();
  }

  /** This controller's Raft id and the leader's, for logs and tests. */
  public RaftPeerId id() {
    return group.self().getId();
  }

  @Override
  public synchronized void close() {
    if (closed && stopped.getCount() == 0 && serving == null) {
      return;
    }
    closed = true;
    Controller c = serving;
    if (c != null) {
      c.close();
    }
    try {
      loop.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      server.close();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "closing the Raft server: " + e);
    }
    stopped.countDown();
  }
}
