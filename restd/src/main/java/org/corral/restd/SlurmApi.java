package org.corral.restd;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import org.corral.common.SlurmError;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.dataparser.DiagJson;
import org.corral.protocol.dataparser.JobJson;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.NoVal;
import org.corral.protocol.dataparser.NodeJson;
import org.corral.protocol.dataparser.SharesJson;
import org.corral.protocol.dataparser.Signals;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoReply;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.LicenseInfo;
import org.corral.protocol.msg.LicenseInfoRequest;
import org.corral.protocol.msg.ShareInfoRequest;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoRequest;
import org.corral.protocol.msg.PingRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StatsRequest;
import org.corral.protocol.msg.SubmitJobRequest;

/**
 * The openapi/slurmctld endpoints of data_parser v0.0.42, each mapped onto the controller RPC a
 * Slurm command would send, made for the authenticated user.
 */
final class SlurmApi {
  static final String VERSION = "v0.0.42";
  static final String PREFIX = "/slurm/" + VERSION + "/";

  static final List<Routes.Route> ROUTES = List.of(
      route("GET", "ping/", "ping", SlurmApi::ping),
      route("GET", "diag/", "diag", SlurmApi::diag),
      route("GET", "jobs/", "jobs", SlurmApi::jobs),
      route("GET", "jobs/state/", "jobs/state", SlurmApi::jobStates),
      route("POST", "job/submit", "job/submit", SlurmApi::submit),
      route("POST", "job/allocate", "job/allocate", SlurmApi::allocate),
      route("GET", "job/{job_id}", "job/([^/]+)", SlurmApi::job),
      route("POST", "job/{job_id}", "job/([^/]+)", JobUpdates::update),
      route("DELETE", "job/{job_id}", "job/([^/]+)", SlurmApi::cancel),
      route("GET", "nodes/", "nodes", SlurmApi::nodes),
      route("GET", "node/{node_name}", "node/([^/]+)", SlurmApi::node),
      route("POST", "node/{node_name}", "node/([^/]+)", NodeUpdates::update),
      route("DELETE", "node/{node_name}", "node/([^/]+)", NodeUpdates::delete),
      route("GET", "licenses/", "licenses", SlurmApi::licenses),
      route("GET", "shares", "shares", SlurmApi::shares),
      route("GET", "partitions/", "partitions", SlurmApi::partitions),
      route("GET", "partition/{partition_name}", "partition/([^/]+)", SlurmApi::partition),
      route("GET", "reservations/", "reservations", SlurmApi::reservations),
      route("GET", "reservation/{reservation_name}", "reservation/([^/]+)", SlurmApi::reservation),
      route("DELETE", "reservation/{reservation_name}", "reservation/([^/]+)", SlurmApi::deleteReservation),
      route("GET", "reconfigure/", "reconfigure", SlurmApi::reconfigure));

  private static Routes.Route route(String method, String specPath, String regex, Routes.Handler<SlurmApi> h) {
    return Routes.slurm(method, specPath, regex, h);
  }

  private final OnBehalfClient ctld;
  private final String cluster;
  private final Function<String, NodeInfo> layouts;
  private final UserDirectory users = UserDirectory.system();

  /**
   * @param layouts the nodes' sockets, cores, threads and memory by name (job_resources,
   *     partitions' tres): from slurm.conf, as Slurm's slurmrestd reads it, so that a GET costs
   *     the client one controller RPC (one rate-limit token), as in Slurm
   */
  SlurmApi(OnBehalfClient ctld, String cluster, Function<String, NodeInfo> layouts) {
    this.ctld = ctld;
    this.cluster = cluster;
    this.layouts = layouts;
  }

  String cluster() {
    return cluster;
  }

  /** Sends {@code r} for the caller; a refusal goes into the answer's errors (and status). */
  Response call(Routes.Call c, Request r, Answer out, String source) throws IOException {
    return checked(ctld.call(c.who(), r), out, source);
  }

  /** {@code resp}, its error (if any) put into the envelope. */
  private static Response checked(Response resp, Answer out, String source) {
    if (resp.getErrorCode() != 0) {
      out.error(status(resp.getErrorCode()), resp.getErrorCode(), SlurmError.messageFor(resp.getErrorCode()),
          resp.getErrorMessage(), source);
    }
    return resp;
  }

  /** The HTTP status of a Slurm error: the client's input (400), rate limited (502, as Slurm), else 500. */
  static int status(int errorCode) {
    if (errorCode == SlurmError.SLURMCTLD_COMMUNICATIONS_BACKOFF.code()) {
      return 502;
    }
    return errorCode >= 9000 && errorCode < 9300 ? 400 : 500;
  }

  private void ping(Routes.Call c, Matcher m, Answer out) throws IOException {
    JsonArray pings = out.body.putArray("pings");
    long t0 = System.nanoTime();
    Response r;
    try {
      r = ctld.call(c.who(), Request.newBuilder().setPing(PingRequest.getDefaultInstance()).build());
    } catch (IOException e) {
      r = null;
    }
    JsonObject p = pings.addObject();
    boolean up = r != null && r.getErrorCode() == 0;
    p.put("hostname", up ? r.getPing().getHost() : "");
    p.put("pinged", up ? "UP" : "DOWN");
    p.put("responding", up);
    p.put("latency", (System.nanoTime() - t0) / 1000);
    // With several controllers the ping reaches the one that leads: its name and place are shown.
    boolean primary = !up || r.getPing().getPrimary();
    p.put("mode", primary ? "primary" : "backup");
    p.put("primary", primary);
    if (!up) {
      out.error(500, SlurmError.CONTROLLER_DOWN.code(), SlurmError.CONTROLLER_DOWN.message(),
          "slurmctld did not answer the ping", "slurm_ping");
    }
  }

  private void diag(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setStats(StatsRequest.getDefaultInstance()).build(), out, "slurm_get_statistics");
    out.body.set("statistics", r.getErrorCode() == 0 ? DiagJson.of(r.getStats()) : new JsonObject());
  }

  private void jobs(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build(), out, "slurm_load_jobs");
    long since = updateTime(c);
    JobInfoReply reply = r.getJobInfo();
    // each job's JSON is made as it is sent: a big queue is never held whole as JSON
    out.body.set("jobs", JsonArray.streamed(reply.getLastUpdate() > since ? reply.getJobsList() : List.of(),
        j -> JobJson.of(j, cluster, layouts)));
    times(out, reply.getLastUpdate());
  }

  private void job(Routes.Call c, Matcher m, Answer out) throws IOException {
    int id = jobId(m.group(1));
    Response r = ctld.call(c.who(), Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(id)).build());
    if (r.getErrorCode() == SlurmError.INVALID_JOB_ID.code()) { // as Slurm's: 404, naming the job
      out.error(404, r.getErrorCode(), SlurmError.INVALID_JOB_ID.message(), "Unable to query JobId=" + id,
          "_handle_job_get");
    } else {
      checked(r, out, "_handle_job_get");
    }
    JsonArray jobs = out.body.putArray("jobs");
    r.getJobInfo().getJobsList().forEach(j -> jobs.add(JobJson.of(j, cluster, layouts)));
    times(out, r.getJobInfo().getLastUpdate());
  }

  private void jobStates(Routes.Call c, Matcher m, Answer out) throws IOException {
    JobInfoRequest.Builder req = JobInfoRequest.newBuilder();
    String ids = c.query().getOrDefault("job_id", "");
    for (String s : ids.split(",")) {
      if (!s.isBlank()) {
        req.addJobIds(jobId(s.trim()));
      }
    }
    Response r = call(c, Request.newBuilder().setJobInfo(req).build(), out, "_op_handler_job_states");
    JsonArray jobs = out.body.putArray("jobs");
    for (JobInfo j : r.getJobInfo().getJobsList()) {
      JsonObject o = jobs.addObject();
      o.put("job_id", j.getJobId());
      o.set("job_state", JobJson.state(j));
      o.set("array_job_id", NoVal.number(j.getArrayJobId()));
      o.set("array_task_id", j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty()
          ? NoVal.number(j.getArrayTaskId()) : NoVal.unset());
      o.put("array_task_string", j.getArrayTasks());
    }
    times(out, r.getJobInfo().getLastUpdate());
  }

  private void submit(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = submit(c, out, false, "_op_handler_submit_job_post");
    if (r.getErrorCode() == 0) {
      out.body.put("job_id", r.getSubmitJob().getJobId());
      out.body.put("step_id", "batch");
      out.body.put("job_submit_user_msg", "");
    }
  }

  /** job/allocate: an allocation without a batch script, held until its time limit or a cancel. */
  private void allocate(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = submit(c, out, true, "_op_handler_job_allocate");
    if (r.getErrorCode() == 0) {
      out.body.put("job_id", r.getSubmitJob().getJobId());
      out.body.put("job_submit_user_msg", "");
    }
  }

  private Response submit(Routes.Call c, Answer out, boolean allocation, String source) throws IOException {
    JobSubmission.Parsed parsed = JobSubmission.parse(Json.object(c.body()), c.host(), allocation);
    for (String f : parsed.ignored()) {
      out.warning("job." + f + " is not supported by Corral and was ignored", "job_desc_msg");
    }
    return call(c, Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(parsed.spec())).build(),
        out, source);
  }

  private void cancel(Routes.Call c, Matcher m, Answer out) throws IOException {
    int id = jobId(m.group(1));
    int signal = 0;
    String text = c.query().get("signal");
    if (text != null && !text.isEmpty()) {
      signal = Signals.parse(text);
      if (signal < 0) {
        throw new RestError(400, SlurmError.REST_FAIL_PARSING, "unknown signal " + text);
      }
    }
    Response r = call(c, Request.newBuilder().setCancelJobs(CancelJobsRequest.newBuilder().addJobIds(id)
        .setSignal(signal).setFull(signal != 0 && "FULL_STEPS_ONLY".equals(c.query().get("flags")))).build(),
        out, "_handle_job_delete");
    JsonArray status = out.body.putArray("status");
    for (JobResult res : r.getJobResults().getResultsList()) {
      if (res.getErrorCode() == 0) {
        continue;
      }
      JsonObject s = status.addObject();
      JsonObject e = s.putObject("error");
      e.put("string", SlurmError.messageFor(res.getErrorCode()));
      e.put("code", res.getErrorCode());
      e.put("message", res.getErrorMessage().isEmpty() ? SlurmError.messageFor(res.getErrorCode()) : res.getErrorMessage());
      s.put("step_id", String.valueOf(res.getJobId()));
      s.set("job_id", NoVal.number(res.getJobId()));
      s.putObject("federation").put("sibling", "");
      out.error(500, res.getErrorCode(), SlurmError.messageFor(res.getErrorCode()),
          "Signal " + (signal == 0 ? "KILL" : Signals.name(signal)) + " to JobId=" + res.getJobId() + " failed",
          "_handle_job_delete");
    }
  }

  private void nodes(Routes.Call c, Matcher m, Answer out) throws IOException {
    nodeList(c, List.of(), out);
  }

  private void node(Routes.Call c, Matcher m, Answer out) throws IOException {
    nodeList(c, List.of(m.group(1)), out);
  }

  private void nodeList(Routes.Call c, List<String> names, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setNodeInfo(NodeInfoRequest.newBuilder().addAllNames(names)).build(),
        out, "slurm_load_node");
    JsonArray nodes = out.body.putArray("nodes");
    long since = updateTime(c);
    if (r.getNodeInfo().getLastUpdate() > since) {
      for (NodeInfo n : r.getNodeInfo().getNodesList()) {
        nodes.add(NodeJson.node(n, uid -> users.userName(uid).orElse(Integer.toUnsignedString(uid))));
      }
    }
    out.body.set("last_update", NoVal.number(r.getNodeInfo().getLastUpdate()));
  }

  private void partitions(Routes.Call c, Matcher m, Answer out) throws IOException {
    partitionList(c, List.of(), out);
  }

  private void partition(Routes.Call c, Matcher m, Answer out) throws IOException {
    partitionList(c, List.of(m.group(1)), out);
  }

  private void partitionList(Routes.Call c, List<String> names, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setPartitionInfo(PartitionInfoRequest.newBuilder().addAllNames(names)
        .setAll("ALL".equals(c.query().get("flags")))).build(), out, "slurm_load_partitions");
    JsonArray parts = out.body.putArray("partitions");
    long since = updateTime(c);
    if (r.getPartitionInfo().getLastUpdate() > since) {
      for (PartitionInfo p : r.getPartitionInfo().getPartitionsList()) {
        parts.add(NodeJson.partition(p, layouts));
      }
    }
    out.body.set("last_update", NoVal.number(r.getPartitionInfo().getLastUpdate()));
  }

  private void reservations(Routes.Call c, Matcher m, Answer out) throws IOException {
    reservationList(c, null, out);
  }

  /** One reservation; an unknown name is Slurm's "Requested reservation is invalid" (404). */
  private void reservation(Routes.Call c, Matcher m, Answer out) throws IOException {
    reservationList(c, m.group(1), out);
  }

  /**
   * {@code scontrol delete ReservationName=}: administrators only (2010 "Invalid user id"), an
   * unknown name 2053, one a job still names 2055 ("Requested reservation is in use").
   */
  private void deleteReservation(Routes.Call c, Matcher m, Answer out) throws IOException {
    call(c, Request.newBuilder().setDeleteReservation(org.corral.protocol.msg.DeleteReservationRequest.newBuilder()
        .setName(Json.pathPart(m.group(1)))).build(), out, "slurm_delete_reservation");
  }

  private void reservationList(Routes.Call c, String name, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setReservationInfo(
        org.corral.protocol.msg.ReservationInfoRequest.getDefaultInstance()).build(), out, "slurm_load_reservations");
    JsonArray list = out.body.putArray("reservations");
    var all = r.getReservationInfo().getReservationsList().stream()
        .filter(x -> name == null || x.getName().equals(name)).toList();
    if (name != null && all.isEmpty()) {
      out.error(404, SlurmError.RESERVATION_INVALID.code(), SlurmError.RESERVATION_INVALID.message(),
          "Unable to query reservation " + name, "slurm_load_reservations");
    }
    if (r.getReservationInfo().getLastUpdate() > updateTime(c)) {
      all.forEach(x -> list.add(org.corral.protocol.dataparser.ReservationJson.reservation(x)));
    }
    out.body.set("last_update", NoVal.number(r.getReservationInfo().getLastUpdate()));
  }

  private void licenses(Routes.Call c, Matcher m, Answer out) throws IOException {
    Response r = call(c, Request.newBuilder().setLicenseInfo(LicenseInfoRequest.getDefaultInstance()).build(), out,
        "slurm_load_licenses");
    JsonArray list = out.body.putArray("licenses");
    for (LicenseInfo l : r.getLicenseInfo().getLicensesList()) {
      JsonObject o = list.addObject();
      o.put("LicenseName", l.getName());
      o.put("Total", l.getTotal());
      o.put("Used", l.getUsed());
      o.put("Free", Math.max(0, (long) l.getTotal() - l.getUsed() - l.getReserved()));
      o.put("Remote", false);
      o.put("Reserved", l.getReserved());
      o.put("LastConsumed", 0);
      o.put("LastDeficit", 0);
      o.put("LastUpdate", 0);
    }
    out.body.set("last_update", NoVal.number(r.getLicenseInfo().getLastUpdate()));
  }

  /** sshare's data: ?users= and ?accounts= (comma-separated) select as sshare -u/-A do. */
  private void shares(Routes.Call c, Matcher m, Answer out) throws IOException {
    ShareInfoRequest.Builder req = ShareInfoRequest.newBuilder()
        .addAllUsers(csv(c.query().get("users"))).addAllAccounts(csv(c.query().get("accounts")));
    Response r = call(c, Request.newBuilder().setShareInfo(req).build(), out, "slurm_associations_get_shares");
    out.body.set("shares", SharesJson.of(r.getShareInfo().getRowsList()));
  }

  private static List<String> csv(String v) {
    return v == null || v.isBlank() ? List.of() : List.of(v.split(","));
  }

  private void reconfigure(Routes.Call c, Matcher m, Answer out) {
    out.error(501, SlurmError.NOT_SUPPORTED.code(), SlurmError.NOT_SUPPORTED.message(),
        "Corral's controller has no reconfigure RPC yet: restart slurmctld to read slurm.conf again",
        "slurm_reconfigure");
  }

  private void times(Answer out, long lastUpdate) {
    out.body.set("last_backfill", NoVal.number(0));
    out.body.set("last_update", NoVal.number(lastUpdate));
  }

  /** ?update_time=EPOCH: only what changed since (Slurm's SLURM_NO_CHANGE_IN_DATA). */
  private static long updateTime(Routes.Call c) {
    String t = c.query().get("update_time");
    if (t == null || t.isEmpty()) {
      return Long.MIN_VALUE;
    }
    if (!t.matches("[0-9]{1,19}")) {
      throw new RestError(400, SlurmError.REST_INVALID_QUERY, "update_time must be a UNIX timestamp");
    }
    return Long.parseLong(t);
  }

  static int jobId(String text) {
    if (!text.matches("[0-9]{1,10}") || Long.parseLong(text) > 0xFFFFFFFEL || Long.parseLong(text) == 0) {
      throw new RestError(500, SlurmError.INVALID_JOB_ID, "Unable to parse JobId=" + text);
    }
    return (int) Long.parseLong(text);
  }
}
