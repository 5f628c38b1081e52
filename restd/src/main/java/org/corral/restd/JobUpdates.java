package org.corral.restd;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import org.corral.common.SlurmError;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.msg.HoldJobsRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UpdateJobRequest;
import tools.jackson.databind.JsonNode;

/**
 * POST /job/{job_id}: a v0.0.42_job_desc_msg applied as {@code scontrol update JobId=} would
 * (time_limit, name, comment, priority, nice, dependency, begin_time), {@code hold} as
 * {@code scontrol hold/release}. The controller checks who may change what, with the same
 * error numbers as for scontrol; fields Corral cannot change are named in warnings.
 */
final class JobUpdates {
  private static final Set<String> KNOWN = Set.of("time_limit", "name", "comment", "priority", "nice",
      "dependency", "begin_time", "hold", "job_id");

  private JobUpdates() {}

  static void update(SlurmApi api, Routes.Call c, Matcher m, Answer out) throws IOException {
    int id = SlurmApi.jobId(m.group(1));
    JsonNode desc = Json.object(c.body());
    if (desc.has("job") && desc.get("job").isObject()) {
      desc = desc.get("job"); // accepted wrapped as job/submit's body is
    }
    Map<String, String> changes = changes(desc);
    desc.propertyNames().stream().filter(n -> !KNOWN.contains(n)).sorted()
        .forEach(n -> out.warning("job." + n + " cannot be updated by Corral and was ignored", "_job_post_update"));
    JsonArray results = out.body.putArray("results");
    if (!changes.isEmpty()) {
      Response r = api.call(c, Request.newBuilder().setUpdateJob(UpdateJobRequest.newBuilder().addJobIds(id)
          .putAllChanges(changes)).build(), out, "_job_post_update");
      report(r, results, out);
    }
    if (desc.has("hold") && !desc.get("hold").asBoolean()) {
      Response r = api.call(c, Request.newBuilder().setHoldJobs(HoldJobsRequest.newBuilder().addJobIds(id)
          .setRelease(true)).build(), out, "_job_post_update");
      report(r, results, out);
    }
  }

  /** The scontrol update keys the description sets (priority 0 holds, as Slurm's hold does). */
  private static Map<String, String> changes(JsonNode d) {
    Map<String, String> changes = new LinkedHashMap<>();
    if (d.has("time_limit")) {
      changes.put("timelimit", Long.toString(Integer.toUnsignedLong(JobSubmission.timeLimit(d.get("time_limit")))));
    }
    text(d, "name").ifPresent(v -> changes.put("jobname", v));
    text(d, "comment").ifPresent(v -> changes.put("comment", v));
    text(d, "dependency").ifPresent(v -> changes.put("dependency", v));
    if (d.has("priority")) {
      long p = JobSubmission.number(d, "priority", -1);
      if (p < 0 || p > 0xFFFFFFFEL) {
        throw new RestError(400, SlurmError.REST_FAIL_PARSING, "priority must be 0 to 4294967294");
      }
      changes.put("priority", Long.toString(p));
    }
    if (d.has("nice")) {
      long n = JobSubmission.number(d, "nice", 0);
      if (Math.abs(n) > 2147483645L) {
        throw new RestError(400, SlurmError.INVALID_NICE, "nice out of range");
      }
      changes.put("nice", Long.toString(n));
    }
    if (d.has("begin_time")) {
      changes.put("starttime", Long.toString(JobSubmission.number(d, "begin_time", 0)));
    }
    if (d.path("hold").asBoolean(false)) {
      changes.put("priority", "0");
    }
    return changes;
  }

  private static java.util.Optional<String> text(JsonNode d, String field) {
    JsonNode v = d.get(field);
    return v == null || v.isNull() ? java.util.Optional.empty() : java.util.Optional.of(v.asString());
  }

  /** One v0.0.42_job_array_response_msg_entry per job; refusals also go into errors. */
  private static void report(Response r, JsonArray results, Answer out) {
    for (JobResult res : r.getJobResults().getResultsList()) {
      JsonObject e = results.addObject();
      e.put("job_id", Integer.toUnsignedLong(res.getJobId()));
      e.put("step_id", "");
      e.put("error", SlurmError.messageFor(res.getErrorCode()));
      e.put("error_code", res.getErrorCode());
      e.put("why", res.getErrorCode() == 0 ? "Job updated" : SlurmError.messageFor(res.getErrorCode()));
      if (res.getErrorCode() != 0) {
        out.error(SlurmApi.status(res.getErrorCode()), res.getErrorCode(), SlurmError.messageFor(res.getErrorCode()),
            "JobId=" + Integer.toUnsignedString(res.getJobId()) + " update failed", "_job_post_update");
      }
    }
  }
}
