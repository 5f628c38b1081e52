package org.corral.dbd;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.dbd.assoc.AssocService;
import org.corral.dbd.report.ReportService;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.NodeEventStore;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.OnBehalf;
import org.corral.protocol.Peer;
import org.corral.protocol.RequestHandler;
import org.corral.protocol.Responses;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.audit.AuditLog;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctEventsReply;
import org.corral.protocol.msg.AcctEventsRequest;
import org.corral.protocol.msg.EventQueryReply;
import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.OnBehalfRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * slurmdbd's RPC surface: the controller's accounting events (only from the controller: a
 * signed credential with sender slurmctld) and the commands' queries (local users, identified
 * by the kernel). A database error is answered as such and loses nothing: the controller keeps
 * what it could not store and sends it again.
 */
final class DbdService implements RequestHandler {
  private static final System.Logger LOG = System.getLogger("slurmdbd");

  private final JobStore jobs;
  private final JobQuery query;
  private final int slurmUid;
  private final Clock clock;
  private final AssocService assoc;
  private final ArchiveService archive;
  private final ReportService report;
  private final NodeEventStore nodeEvents;
  private final String cluster;
  private final org.corral.protocol.msg.ConfigReply settings;
  private final PrivateView privateView;

  DbdService(JobStore jobs, String cluster, int slurmUid, Clock clock, AssocService assoc, ArchiveService archive,
      ReportService report, NodeEventStore nodeEvents, org.corral.protocol.msg.ConfigReply settings) {
    this(jobs, cluster, slurmUid, clock, assoc, archive, report, nodeEvents, settings,
        org.corral.common.config.PrivateData.NONE);
  }

  /** @param privateData slurmdbd.conf's PrivateData: what plain users may not read */
  DbdService(JobStore jobs, String cluster, int slurmUid, Clock clock, AssocService assoc, ArchiveService archive,
      ReportService report, NodeEventStore nodeEvents, org.corral.protocol.msg.ConfigReply settings,
      org.corral.common.config.PrivateData privateData) {
    this.privateView = new PrivateView(privateData, assoc);
    this.settings = settings;
    this.nodeEvents = nodeEvents;
    this.cluster = cluster;
    this.assoc = assoc;
    this.archive = archive;
    this.report = report;
    this.jobs = jobs;
    this.query = new JobQuery(jobs, cluster);
    this.slurmUid = slurmUid;
    this.clock = clock;
  }

  /** Audits sacctmgr's changes and archive loads from now on (see {@link AuditLog}). */
  void audit(AuditLog log) {
    this.audit = log;
  }

  private volatile AuditLog audit = AuditLog.NONE;

  @Override
  public Response handle(Peer peer, Request req) {
    return handle(peer, req, null);
  }

  @Override
  public Response handle(Peer peer, Request req, String remote) {
    return serve(peer, req, remote, null);
  }

  /** Answers one request and audits it when it changes state; {@code via}: the daemon that sent it for peer. */
  private Response serve(Peer peer, Request req, String remote, String via) {
    if (req.getBodyCase() == Request.BodyCase.ON_BEHALF) {
      return onBehalf(peer, req.getOnBehalf(), remote);
    }
    Response response = answer(peer, req);
    audit.record(peer, remote, via, req, response);
    return response;
  }

  private Response answer(Peer peer, Request req) {
    try {
      return switch (req.getBodyCase()) {
        case ACCT_EVENTS -> events(peer, req.getAcctEvents());
        case JOB_QUERY -> {
          if (peer.isDaemon()) {
            yield Responses.error(SlurmError.ACCESS_DENIED, "queries come from local users");
          }
          long now = clock.instant().getEpochSecond();
          boolean privileged = peer.uid() == 0 || peer.uid() == slurmUid;
          PrivateView.Viewer v = privateView.viewer(peer);
          yield Response.newBuilder().setJobQuery(query.run(req.getJobQuery(), peer.uid(), privileged, now,
              privateView.jobsLimited(v) ? v : null)).build();
        }
        case EVENT_QUERY -> {
          if (privateView.eventsDenied(privateView.viewer(peer))) {
            yield Responses.error(SlurmError.ACCESS_DENIED, SlurmError.ACCESS_DENIED.message());
          }
          EventQueryRequest q = req.getEventQuery();
          yield Response.newBuilder().setEventQuery(EventQueryReply.newBuilder().addAllEvents(nodeEvents.find(
              q.getClustersCount() == 0 ? List.of(cluster) : q.getClustersList(), q))).build();
        }
        case ASSOC_SNAPSHOT -> {
          Response r = assoc.snapshot(peer, req.getAssocSnapshot());
          yield r.hasAssocSnapshot() ? r.toBuilder().setAssocSnapshot(
              privateView.snapshot(r.getAssocSnapshot(), privateView.viewer(peer))).build() : r;
        }
        case ACCT_UPDATE -> assoc.update(peer, req.getAcctUpdate());
        case TXN_QUERY -> assoc.transactions(req.getTxnQuery());
        case USAGE_REPORT -> Response.newBuilder().setUsageReport(
            privateView.report(report.report(req.getUsageReport()), privateView.viewer(peer))).build();
        case ARCHIVE_DUMP -> archive.dump(peer, req.getArchiveDump());
        case ARCHIVE_LOAD -> archive.load(peer, req.getArchiveLoad());
        case CONFIG -> Response.newBuilder().setConfig(settings).build(); // sacctmgr show configuration
        case PING -> Response.newBuilder().setPing(org.corral.protocol.msg.PingReply.newBuilder()
            .setPrimary(true)).build();
        default -> Responses.error(SlurmError.PROTOCOL_VERSION_ERROR,
            "slurmdbd does not serve " + req.getBodyCase());
      };
    } catch (SQLException e) {
      LOG.log(Level.ERROR, "database error: " + e.getMessage());
      return Responses.error(SlurmError.DB_CONNECTION, "Unable to connect to database: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      return Responses.error(SlurmError.INVALID_JOB_ID, e.getMessage());
    }
  }

  /** slurmrestd's request for a REST user: answered exactly as for that local user (ADR 0003). */
  private Response onBehalf(Peer peer, OnBehalfRequest wrapped, String remote) {
    Peer user;
    try {
      user = OnBehalf.resolve(peer, wrapped, UserDirectory.system(), LOG);
    } catch (OnBehalf.Refused e) {
      Response refused = Responses.error(e.error(), e.getMessage());
      audit.record(new Peer(wrapped.hasUid() ? wrapped.getUid() : Peer.UNKNOWN_ID, Peer.UNKNOWN_ID,
          wrapped.getUserName().isEmpty() ? null : wrapped.getUserName(), peer.daemon()), remote, peer.daemon(),
          wrapped.getRequest(), refused);
      return refused;
    }
    return serve(user, wrapped.getRequest(), remote, peer.daemon());
  }

  /** Events the controller caused itself are SlurmUser's, as Slurm records them. */
  private List<AcctEvent> bySlurmUser(List<AcctEvent> events) {
    return events.stream().map(e -> e.hasNodeEvent() && e.getNodeEvent().getReasonUid() == NodeEvents.BY_CONTROLLER
        ? e.toBuilder().setNodeEvent(e.getNodeEvent().toBuilder().setReasonUid(slurmUid)).build() : e).toList();
  }

  private Response events(Peer peer, AcctEventsRequest r) throws SQLException {
    if (!"slurmctld".equals(peer.daemon())) {
      LOG.log(Level.WARNING, "refused accounting events from " + (peer.isDaemon() ? peer.daemon() : "uid " + peer.uid()));
      return Responses.error(SlurmError.ACCESS_DENIED, "only the controller sends job records");
    }
    if (r.getCluster().isEmpty()) {
      return Responses.error(SlurmError.PROTOCOL_VERSION_ERROR, "job records without a cluster name");
    }
    long through = r.getEventsCount() == 0 ? 0 : jobs.store(r.getCluster(), bySlurmUser(r.getEventsList()));
    return Response.newBuilder().setAcctEvents(AcctEventsReply.newBuilder().setStoredThrough(through)).build();
  }
}
