package org.corral.restd;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.corral.common.Version;
import org.corral.common.config.AccountingConfig;
import org.corral.common.config.ConfigException;
import org.corral.common.config.SlurmConfKeys;
import org.corral.common.config.SlurmConfig;
import org.corral.common.config.SubmitLimits;
import org.corral.protocol.ClusterKey;
import org.corral.protocol.Credentials;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.UserDirectory;

/**
 * slurmrestd: Slurm's REST API in front of the controller and slurmdbd. It holds the cluster key
 * to sign its RPCs as "slurmrestd" and the jwt key to check users' tokens; every request goes to
 * the controller (/slurm/) or slurmdbd (/slurmdb/) on behalf of the user who made it
 * (docs/adr/0003-rest-identity.md).
 */
public final class Slurmrestd implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("slurmrestd");
  /** Channels to the controller, each lent to one request at a time (OnBehalfClient). */
  static final int CHANNELS = 32;
  /** Channels to slurmdbd (AccountingStorageHost/Port), signed the same way. */
  static final int DBD_CHANNELS = 4;

  private final List<AutoCloseable> parts;

  private Slurmrestd(List<AutoCloseable> parts) {
    this.parts = parts;
  }

  public static void main(String[] args) {
    org.corral.common.FailFast.install(); // no half-alive daemon: a dead thread ends the process
    RestdOptions o;
    try {
      o = RestdOptions.parse(List.of(args), System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("slurmrestd: " + e.getMessage());
      System.err.println("Usage: slurmrestd [-f slurm.conf] [-a rest_auth/jwt,rest_auth/local] [-s openapi/slurmctld]"
          + " [-d data_parser/v0.0.42] [-v] [-V] [HOST:PORT | unix:/PATH]...");
      System.exit(1);
      return;
    }
    if (o.version()) {
      System.out.println(Version.TEXT);
      return;
    }
    try {
      Slurmrestd d = start(SlurmConfig.load(o.conf()), o, Clock.systemUTC());
      Runtime.getRuntime().addShutdownHook(new Thread(d::close));
      new CountDownLatch(1).await();
    } catch (IOException | ConfigException e) {
      System.err.println("slurmrestd: fatal: " + e.getMessage());
      System.exit(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The largest request body: a submission within the controller's limits, with room for JSON's
   * escapes of the script.
   */
  private static int maxBody(SlurmConfig cfg) throws IOException {
    try {
      return 2 * SubmitLimits.of(cfg.text(SlurmConfKeys.SCHEDULER_PARAMETERS).orElse("")).requestBytes();
    } catch (IllegalArgumentException e) {
      throw new IOException(cfg.path() + ": " + e.getMessage(), e);
    }
  }

  /** Binds every listen address and serves until closed. */
  public static Slurmrestd start(SlurmConfig cfg, RestdOptions o, Clock clock) throws IOException {
    UserDirectory users = UserDirectory.system();
    int slurmUid = users.uid(cfg.slurmUser()).orElse(0);
    ClusterKey key = ClusterKey.load(org.corral.protocol.auth.SackKeys.keyFile(cfg.path(), System.getenv()), slurmUid);
    Credentials creds = new Credentials(key, "slurmrestd", clock);
    List<RpcChannel> channels = new ArrayList<>();
    for (int i = 0; i < CHANNELS; i++) {
      channels.add(org.corral.protocol.ControllerFailover.overTcp(cfg, creds, Duration.ofSeconds(60)));
    }
    SlurmApi slurm = new SlurmApi(new OnBehalfClient(channels), cfg.clusterName(), NodeLayouts.of(cfg));
    AccountingConfig acct = cfg.accounting();
    OnBehalfClient dbd = null;
    if (acct.enabled()) {
      List<RpcChannel> dbdChannels = new ArrayList<>();
      for (int i = 0; i < DBD_CHANNELS; i++) {
        dbdChannels.add(new TcpChannel(acct.host(), acct.port(), "slurmdbd", creds, Duration.ofSeconds(60)));
      }
      dbd = new OnBehalfClient(dbdChannels);
    }
    Routes.Apis api = new Routes.Apis(slurm, new SlurmdbApi(dbd, acct.host(), clock), clock);
    JwtVerifier jwt = new JwtVerifier(JwtVerifier.keyFile(cfg.text(SlurmConfKeys.AUTH_ALT_PARAMETERS).orElse(null),
        cfg.stateSaveLocation()), clock);
    Authenticator auth = new Authenticator(o.authTypes(), jwt, cfg.slurmUser());
    byte[] openapi = Json.MAPPER.writeValueAsBytes(OpenApiDocument.implemented());
    List<AutoCloseable> parts = new ArrayList<>();
    try {
      for (String l : o.tcp()) {
        RestServer s = new RestServer(RestdOptions.address(l), api, auth, a -> -1, openapi, maxBody(cfg));
        parts.add(s);
        LOG.log(Level.INFO, "slurmrestd listening on " + s.address());
      }
      for (Path p : o.unix()) {
        UnixBridge bridge = new UnixBridge(p);
        parts.add(bridge);
        RestServer s = new RestServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), api, auth,
            bridge::uidOf, openapi, maxBody(cfg));
        parts.add(s);
        bridge.start(s.address());
        LOG.log(Level.INFO, "slurmrestd listening on unix:" + p);
      }
    } catch (IOException | RuntimeException e) {
      new Slurmrestd(parts).close();
      throw e;
    }
    return new Slurmrestd(parts);
  }

  /** The TCP address of the first TCP listener (tests, benchmarks). */
  public InetSocketAddress tcpAddress() {
    return parts.stream().filter(p -> p instanceof RestServer).map(p -> ((RestServer) p).address())
        .findFirst().orElseThrow();
  }

  @Override
  public void close() {
    for (AutoCloseable p : parts.reversed()) {
      try {
        p.close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "closing " + p + ": " + e);
      }
    }
  }
}
