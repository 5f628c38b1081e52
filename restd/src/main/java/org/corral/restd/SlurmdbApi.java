package org.corral.restd;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.dataparser.AcctJson;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * The openapi/slurmdbd endpoints of data_parser v0.0.42 over slurmdbd, each made for the
 * authenticated user (an on-behalf-of request, answered by slurmdbd with that user's rights):
 * jobs through sacct's query (paged), clusters, accounts, users, associations and QOS through
 * sacctmgr's snapshot, and their changes through sacctmgr's update (see {@link SlurmdbWrites}).
 */
final class SlurmdbApi {
  static final String PREFIX = "/slurmdb/" + SlurmApi.VERSION + "/";
  private static final int PAGE = 1000;

  static final List<Routes.Route> ROUTES = List.of(
      Routes.slurmdb("GET", "ping/", "ping", SlurmdbApi::ping),
      Routes.slurmdb("GET", "diag/", "diag", SlurmdbApi::diag),
      Routes.slurmdb("GET", "jobs/", "jobs", SlurmdbApi::jobs),
      Routes.slurmdb("GET", "job/{job_id}", "job/([^/]+)", SlurmdbApi::job),
      Routes.slurmdb("GET", "accounts/", "accounts", SlurmdbApi::accounts),
      Routes.slurmdb("POST", "accounts/", "accounts", (api, c, m, out) -> api.writes.accounts(c, out)),
      Routes.slurmdb("GET", "account/{account_name}", "account/([^/]+)", SlurmdbApi::account),
      Routes.slurmdb("DELETE", "account/{account_name}", "account/([^/]+)",
          (api, c, m, out) -> api.writes.deleteAccount(c, Json.pathPart(m.group(1)), out)),
      Routes.slurmdb("GET", "associations/", "associations", SlurmdbApi::associations),
      Routes.slurmdb("POST", "associations/", "associations", (api, c, m, out) -> api.writes.associations(c, out)),
      Routes.slurmdb("GET", "users/", "users", SlurmdbApi::users),
      Routes.slurmdb("POST", "users/", "users", (api, c, m, out) -> api.writes.users(c, out)),
      Routes.slurmdb("GET", "user/{name}", "user/([^/]+)", SlurmdbApi::user),
      Routes.slurmdb("DELETE", "user/{name}", "user/([^/]+)",
          (api, c, m, out) -> api.writes.deleteUser(c, Json.pathPart(m.group(1)), out)),
      Routes.slurmdb("GET", "qos/", "qos", SlurmdbApi::qosList),
      Routes.slurmdb("POST", "qos/", "qos", (api, c, m, out) -> api.writes.qos(c, out)),
      Routes.slurmdb("GET", "qos/{qos}", "qos/([^/]+)", SlurmdbApi::qos),
      Routes.slurmdb("DELETE", "qos/{qos}", "qos/([^/]+)",
          (api, c, m, out) -> api.writes.deleteQos(c, Json.pathPart(m.group(1)), out)),
      Routes.slurmdb("GET", "tres/", "tres", SlurmdbApi::tres),
      Routes.slurmdb("GET", "clusters/", "clusters", SlurmdbApi::clusters),
      Routes.slurmdb("GET", "config", "config", SlurmdbApi::config));

  private final OnBehalfClient dbd;
  private final String dbdHost;
  private final Clock clock;
  private final UserDirectory users = UserDirectory.system();
  private final long started;
  /** What slurmrestd asked slurmdbd, per message type and per user: count, total microseconds. */
  private final Map<String, AtomicLongArray> byType = new ConcurrentHashMap<>();
  private final Map<String, AtomicLongArray> byUser = new ConcurrentHashMap<>();
  final SlurmdbWrites writes;

  /** @param dbd the way to slurmdbd, or null where slurm.conf configures no accounting */
  SlurmdbApi(OnBehalfClient dbd, String dbdHost, Clock clock) {
    this.dbd = dbd;
    this.dbdHost = dbdHost;
    this.clock = clock;
    this.started = clock.instant().getEpochSecond();
    this.writes = new SlurmdbWrites(this);
  }

  /** meta.plugin.accounting_storage of every answer, slurmctld's too (as Slurm's, the cluster's storage type). */
  String storageType() {
    return dbd == null ? "" : "accounting_storage/slurmdbd";
  }

  /** One request to slurmdbd for the caller; its error (if any) goes into the envelope. */
  Response call(Routes.Call c, Request r, Answer out, String source) throws IOException {
    if (dbd == null) {
      throw new RestError(500, SlurmError.NOT_SUPPORTED.code(), SlurmError.NOT_SUPPORTED.message(),
          "slurm.conf sets no AccountingStorageType=accounting_storage/slurmdbd");
    }
    long t0 = System.nanoTime();
    Response resp = dbd.call(c.who(), r);
    long us = (System.nanoTime() - t0) / 1000;
    count(byType, "DBD_" + r.getBodyCase().name(), us);
    count(byUser, c.who().userName() != null ? c.who().userName() : String.valueOf(c.who().uid()), us);
    if (resp.getErrorCode() != 0) {
      out.error(500, resp.getErrorCode(), SlurmError.messageFor(resp.getErrorCode()), resp.getErrorMessage(), source);
    }
    return resp;
  }

  private static void count(Map<String, AtomicLongArray> m, String key, long us) {
    AtomicLongArray a = m.computeIfAbsent(key, k -> new AtomicLongArray(2));
    a.incrementAndGet(0);
    a.addAndGet(1, us);
  }

  AssocSnapshot snapshot(Routes.Call c, Answer out, String source) throws IOException {
    Response r = call(c, Request.newBuilder().setAssocSnapshot(AssocSnapshotRequest.getDefaultInstance()).build(),
        out, source);
    return r.getErrorCode() == 0 ? r.getAssocSnapshot() : AssocSnapshot.getDefaultInstance();
  }

  Response update(Routes.Call c, List<AcctChange> changes, Answer out, String source) throws IOException {
    return call(c, Request.newBuilder().setAcctUpdate(AcctUpdateRequest.newBuilder().addAllChanges(changes)).build(),
        out, source);
  }

  private void ping(Routes.Call c, Matcher m, Answer out) throws IOException {
    long t0 = System.nanoTime();
    Response r;
    try {
      r = dbd == null ? null : dbd.call(c.who(), Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
    } catch (IOException e) {
      r = null;
    }
    boolean up = r != null && r.getErrorCode() == 0;
    JsonObject p = out.body.putArray("pings").addObject();
    p.put("hostname", dbdHost);
    p.put("responding", up);
    p.put("latency", (System.nanoTime() - t0) / 1000);
    p.put("primary", true);
    if (!up) {
      out.error(500, SlurmError.DB_CONNECTION.code(), SlurmError.DB_CONNECTION.message(),
          "slurmdbd did not answer the ping", "slurmdb_ping");
    }
  }

  /**
   * v0.0.42_stats_rec. slurmdbd keeps no RPC statistics of its own yet: these are the requests
   * slurmrestd has made to it since it started, said so in a warning.
   */
  private void diag(Routes.Call c, Matcher m, Answer out) {
    JsonObject s = out.body.putObject("statistics");
    s.put("time_start", started);
    JsonObject rollups = s.putObject("rollups");
    for (String period : List.of("hourly", "daily", "monthly")) {
      JsonObject p = rollups.putObject(period);
      p.put("count", 0);
      p.put("last_run", 0);
      JsonObject d = p.putObject("duration");
      d.put("last", 0);
      d.put("max", 0);
      d.put("time", 0);
    }
    JsonArray rpcs = s.putArray("RPCs");
    byType.forEach((k, v) -> stat(rpcs.addObject(), "rpc", k, v));
    JsonArray us = s.putArray("users");
    byUser.forEach((k, v) -> stat(us.addObject(), "user", k, v));
    out.warning("slurmdbd keeps no RPC statistics yet: these count slurmrestd's own requests to it", "slurmdbd");
  }

  private static void stat(JsonObject o, String field, String name, AtomicLongArray v) {
    o.put(field, name);
    long n = v.get(0);
    o.put("count", n);
    JsonObject t = o.putObject("time");
    t.put("average", n == 0 ? 0 : v.get(1) / n);
    t.put("total", v.get(1));
  }

  private void jobs(Routes.Call c, Matcher m, Answer out) throws IOException {
    Map<String, String> q = c.query();
    JobQueryRequest.Builder req = JobQueryRequest.newBuilder();
    List<String> userNames = csv(q.get("users"));
    for (String u : userNames) {
      OptionalInt uid = u.matches("[0-9]+") ? OptionalInt.of(Integer.parseUnsignedInt(u)) : users.uid(u);
      if (uid.isEmpty()) {
        throw new RestError(400, SlurmError.USER_ID_MISSING, "Unable to resolve user: " + u);
      }
      req.addUserIds(uid.getAsInt());
    }
    req.setAllUsers(userNames.isEmpty());
    req.addAllAccounts(csv(q.get("account")));
    req.addAllPartitions(csv(q.get("partition")));
    req.addAllNames(csv(q.get("job_name")));
    req.addAllClusters(csv(q.get("cluster")));
    for (String s : csv(q.get("state"))) {
      req.addStates(state(s));
    }
    String nodes = q.get("node");
    if (nodes != null && !nodes.isBlank()) {
      req.addAllNodeList(Hostlist.expand(nodes));
    }
    req.setStart(epoch(q, "start_time"));
    req.setEnd(epoch(q, "end_time"));
    req.setDuplicates(flag(q, "show_duplicates"));
    for (String unsupported : List.of("association", "reservation", "reservation_id", "wckey", "step")) {
      if (q.containsKey(unsupported) && !q.get(unsupported).isBlank()) {
        out.warning("filter " + unsupported + " is not supported by Corral and was ignored", "slurmdb_jobs_get");
      }
    }
    Predicate<AcctJob> extra = extraFilter(q);
    select(c, req, extra, !flag(q, "skip_steps"), out);
  }

  private void job(Routes.Call c, Matcher m, Answer out) throws IOException {
    String id = Json.pathPart(m.group(1));
    if (!id.matches("[0-9]{1,10}(_[0-9]{1,10})?(\\.[a-z0-9]+)?")) {
      throw new RestError(500, SlurmError.INVALID_JOB_ID, "Unable to parse JobId=" + id);
    }
    select(c, JobQueryRequest.newBuilder().addJobIds(id).setAllUsers(true), j -> true, true, out);
  }

  /** Pages through slurmdbd's answer, so no single reply holds every record. */
  private void select(Routes.Call c, JobQueryRequest.Builder req, Predicate<AcctJob> keep, boolean steps, Answer out)
      throws IOException {
    List<AcctJob> kept = new java.util.ArrayList<>();
    long now = clock.instant().getEpochSecond();
    // each record's JSON is made as it is sent: a long history is never held whole as JSON
    out.body.set("jobs", JsonArray.streamed(kept, j -> AcctJson.job(j, steps, this::userName, now)));
    req.setPageSize(PAGE);
    while (true) {
      Response r = call(c, Request.newBuilder().setJobQuery(req).build(), out, "slurmdb_jobs_get");
      if (r.getErrorCode() != 0) {
        kept.clear();
        return;
      }
      JobQueryReply reply = r.getJobQuery();
      reply.getJobsList().stream().filter(keep).forEach(kept::add);
      if (!reply.getMore()) {
        return;
      }
      org.corral.protocol.JobQueryPages.after(req, reply);
    }
  }

  private String userName(int uid) {
    return users.userName(uid).orElse(Integer.toUnsignedString(uid));
  }

  /** The filters slurmdbd's query has no field for: qos, groups, exit_code, reason, constraints. */
  private Predicate<AcctJob> extraFilter(Map<String, String> q) {
    Set<String> qos = Set.copyOf(csv(q.get("qos")));
    Set<String> groups = Set.copyOf(csv(q.get("groups")));
    Set<String> reasons = Set.copyOf(csv(q.get("reason")));
    Set<String> constraints = Set.copyOf(csv(q.get("constraints")));
    String exit = q.getOrDefault("exit_code", "");
    if (!exit.isEmpty() && !exit.matches("[0-9]{1,3}")) {
      throw new RestError(400, SlurmError.REST_INVALID_QUERY, "exit_code must be a number");
    }
    return j -> (qos.isEmpty() || qos.contains(j.getQos()))
        && (groups.isEmpty() || groups.contains(j.getGroupName()) || groups.contains(String.valueOf(j.getGroupId())))
        && (reasons.isEmpty() || reasons.contains(j.getReason()))
        && (constraints.isEmpty() || constraints.contains(j.getConstraints()))
        && (exit.isEmpty() || ((j.getExitStatus() >> 8) & 0xff) == Integer.parseInt(exit));
  }

  private static JobState state(String s) {
    return org.corral.protocol.JobStateNames.parse(s.trim())
        .orElseThrow(() -> new RestError(400, SlurmError.REST_INVALID_QUERY, "unknown job state " + s));
  }

  private static long epoch(Map<String, String> q, String key) {
    String v = q.get(key);
    if (v == null || v.isBlank()) {
      return 0;
    }
    if (!v.trim().matches("[0-9]{1,19}")) {
      throw new RestError(400, SlurmError.REST_INVALID_QUERY, key + " must be a UNIX timestamp");
    }
    return Long.parseLong(v.trim());
  }

  private static boolean flag(Map<String, String> q, String key) {
    String v = q.get(key);
    return v != null && !v.equalsIgnoreCase("false") && !v.equals("0");
  }

  static List<String> csv(String v) {
    List<String> out = new ArrayList<>();
    if (v != null) {
      for (String s : v.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return out;
  }

  private void accounts(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_accounts_get");
    accountList(snap, a -> true, c.query(), "WithAssociations", "WithCoordinators", out);
  }

  private void account(Routes.Call c, Matcher m, Answer out) throws IOException {
    String name = Json.pathPart(m.group(1));
    AssocSnapshot snap = snapshot(c, out, "slurmdb_account_get");
    accountList(snap, a -> a.getName().equalsIgnoreCase(name), c.query(), "with_assocs", "with_coords", out);
  }

  private static void accountList(AssocSnapshot snap, Predicate<AcctAccount> keep, Map<String, String> q,
      String assocFlag, String coordFlag, Answer out) {
    JsonArray list = out.body.putArray("accounts");
    snap.getAccountsList().stream().filter(keep)
        .forEach(a -> list.add(withLists(AcctJson.account(a, snap), q, assocFlag, coordFlag)));
  }

  /**
   * An account or user with its associations and coordinators only where the query asks for
   * them (Slurm's with_assocs/with_coords flags; without them its slurmrestd lists both empty).
   */
  private static JsonObject withLists(JsonObject o, Map<String, String> q, String assocFlag, String coordFlag) {
    if (!flag(q, assocFlag)) {
      o.putArray("associations");
    }
    if (!flag(q, coordFlag)) {
      o.putArray("coordinators");
    }
    return o;
  }

  private void users(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_users_get");
    String admin = c.query().getOrDefault("admin_level", "");
    String defAccount = c.query().getOrDefault("default_account", "");
    userList(snap, u -> (admin.isEmpty() || AcctJson.adminLevel(u)
        .equalsIgnoreCase(admin)) && (defAccount.isEmpty() || csv(defAccount).contains(u.getDefaultAccount())),
        c.query(), out);
  }

  private void user(Routes.Call c, Matcher m, Answer out) throws IOException {
    String name = Json.pathPart(m.group(1));
    AssocSnapshot snap = snapshot(c, out, "slurmdb_user_get");
    userList(snap, u -> u.getName().equals(name), c.query(), out);
  }

  private static void userList(AssocSnapshot snap, Predicate<AcctUser> keep, Map<String, String> q, Answer out) {
    JsonArray list = out.body.putArray("users");
    snap.getUsersList().stream().filter(keep)
        .forEach(u -> list.add(withLists(AcctJson.user(u, snap), q, "with_assocs", "with_coords")));
  }

  /** ?account=, cluster=, user=, partition= (CSV each) select, as sacctmgr's where does. */
  private void associations(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_associations_get");
    Map<String, String> q = c.query();
    List<String> accounts = csv(q.get("account"));
    List<String> clusters = csv(q.get("cluster"));
    List<String> userNames = csv(q.get("user"));
    List<String> partitions = csv(q.get("partition"));
    JsonArray list = out.body.putArray("associations");
    for (AcctAssoc a : snap.getAssocsList()) {
      if ((accounts.isEmpty() || accounts.contains(a.getAccount()))
          && (clusters.isEmpty() || clusters.contains(a.getCluster()))
          && (userNames.isEmpty() || userNames.contains(a.getUser()))
          && (partitions.isEmpty() || partitions.contains(a.getPartition()))) {
        list.add(AcctJson.assoc(a, snap));
      }
    }
  }

  private void qosList(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_qos_get");
    List<String> names = csv(c.query().get("name"));
    JsonArray list = out.body.putArray("qos");
    snap.getQosList().stream().filter(q -> names.isEmpty() || names.contains(q.getName()))
        .forEach(q -> list.add(AcctJson.qos(q)));
  }

  private void qos(Routes.Call c, Matcher m, Answer out) throws IOException {
    String name = Json.pathPart(m.group(1));
    AssocSnapshot snap = snapshot(c, out, "slurmdb_qos_get");
    JsonArray list = out.body.putArray("qos");
    snap.getQosList().stream().filter(q -> q.getName().equals(name)).forEach(q -> list.add(AcctJson.qos(q)));
  }

  private void tres(Routes.Call c, Matcher m, Answer out) {
    out.body.set("TRES", AcctJson.tresTable());
  }

  private void clusters(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_clusters_get");
    JsonArray list = out.body.putArray("clusters");
    for (AcctCluster cl : snap.getClustersList()) {
      list.add(AcctJson.cluster(cl, snap));
    }
  }

  /** Everything at once, as sacctmgr dump would hand it over. */
  private void config(Routes.Call c, Matcher m, Answer out) throws IOException {
    AssocSnapshot snap = snapshot(c, out, "slurmdb_config_get");
    JsonArray clusters = out.body.putArray("clusters");
    snap.getClustersList().forEach(cl -> clusters.add(AcctJson.cluster(cl, snap)));
    out.body.set("tres", AcctJson.tresTable());
    JsonArray accounts = out.body.putArray("accounts");
    snap.getAccountsList().forEach(a -> accounts.add(AcctJson.account(a, snap)));
    JsonArray userList = out.body.putArray("users");
    snap.getUsersList().forEach(u -> userList.add(AcctJson.user(u, snap)));
    JsonArray qos = out.body.putArray("qos");
    for (AcctQos q : snap.getQosList()) {
      qos.add(AcctJson.qos(q));
    }
    out.body.putArray("wckeys");
    JsonArray assocs = out.body.putArray("associations");
    snap.getAssocsList().forEach(a -> assocs.add(AcctJson.assoc(a, snap)));
    out.body.putArray("instances");
  }
}
