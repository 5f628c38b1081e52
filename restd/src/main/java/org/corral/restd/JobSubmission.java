package org.corral.restd;

import java.util.List;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.protocol.dataparser.NoVal;
import org.corral.protocol.dataparser.Signals;
import org.corral.protocol.msg.JobSpec;
import tools.jackson.databind.JsonNode;

/**
 * A v0.0.42_job_submit_req body ({@code {"job":{...}}}, or the older {@code "script"} beside
 * it) as the JobSpec sbatch would have sent. Numbers are accepted plain or as Slurm's
 * {set,infinite,number}. Fields Corral does not implement are named in a warning, not ignored
 * silently.
 */
final class JobSubmission {
  private static final Set<String> KNOWN = Set.of("script", "name", "partition", "account", "comment",
      "dependency", "current_working_directory", "environment", "standard_output", "standard_error",
      "standard_input", "time_limit", "minimum_nodes", "maximum_nodes", "nodes", "tasks", "cpus_per_task",
      "tasks_per_node", "memory_per_node", "memory_per_cpu", "hold", "nice", "requeue", "argv", "array",
      "begin_time", "deadline", "required_nodes", "excluded_nodes", "constraints", "open_mode",
      "kill_warning_signal", "kill_warning_delay", "user_id", "group_id", "licenses");

  record Parsed(JobSpec spec, List<String> ignored) {}

  private JobSubmission() {}

  static Parsed parse(JsonNode body, String submitHost) {
    return parse(body, submitHost, false);
  }

  /**
   * @param allocation job/allocate: an allocation with no batch script (as salloc --no-shell
   *     makes), which holds its nodes until its time limit or a cancel
   */
  static Parsed parse(JsonNode body, String submitHost, boolean allocation) {
    try {
      return parseJob(body, submitHost, allocation);
    } catch (tools.jackson.databind.exc.JsonNodeException e) {
      throw RestError.wrongType(e);
    }
  }

  private static Parsed parseJob(JsonNode body, String submitHost, boolean allocation) {
    if (body == null || !body.isObject()) {
      throw new RestError(400, SlurmError.REST_INVALID_JOBS_DESC, "request body must be a JSON object");
    }
    JsonNode job = body.get("job");
    if (job == null || !job.isObject()) {
      throw new RestError(400, SlurmError.REST_INVALID_JOBS_DESC,
          body.has("jobs") ? "heterogeneous jobs (\"jobs\") are not supported" : "\"job\" must be given as an object");
    }
    String script = allocation ? "" : text(job, "script", text(body, "script", ""));
    if (script.isEmpty() && !allocation) {
      throw new RestError(500, SlurmError.JOB_SCRIPT_MISSING, "job.script is required for a batch job");
    }
    JobSpec.Builder b = JobSpec.newBuilder().setScript(script).setSubmitHost(submitHost)
        .setName(text(job, "name", "")).setPartition(text(job, "partition", ""))
        .setAccount(text(job, "account", "")).setComment(text(job, "comment", ""))
        .setDependency(text(job, "dependency", ""))
        .setWorkDir(text(job, "current_working_directory", "/tmp"))
        .setStdOut(text(job, "standard_output", "")).setStdErr(text(job, "standard_error", ""))
        .setStdIn(text(job, "standard_input", "")).setOpenMode(text(job, "open_mode", "").toLowerCase(java.util.Locale.ROOT))
        .setArray(text(job, "array", "")).setConstraint(text(job, "constraints", ""))
        .setReqNodes(csv(job, "required_nodes")).setExcNodes(csv(job, "excluded_nodes"))
        .setHold(job.path("hold").asBoolean(false)).setNice(int32(job, "nice", 0))
        .setBeginTime(number(job, "begin_time", 0)).setDeadline(number(job, "deadline", 0))
        .setExportEnv("ALL").setInteractive(allocation);
    if (b.getName().isEmpty()) {
      // what Slurm names a job submitted (or allocated) without one through the API
      b.setName(allocation ? "allocation" : "sbatch");
    }
    if (job.has("environment")) {
      for (JsonNode e : job.get("environment")) {
        b.addEnvironment(noNul("environment", scalar("environment", e).asString()));
      }
    }
    if (job.has("argv")) {
      for (JsonNode a : job.get("argv")) {
        b.addArgv(noNul("argv", scalar("argv", a).asString()));
      }
    }
    if (job.has("time_limit")) {
      b.setTimeLimitMin(timeLimit(job.get("time_limit")));
    }
    if (job.has("nodes")) {
      String[] range = text(job, "nodes", "").split("-", 2);
      b.setMinNodes(positive("nodes", range[0]));
      if (range.length > 1) {
        b.setMaxNodes(positive("nodes", range[1]));
      }
    }
    if (job.has("minimum_nodes")) {
      b.setMinNodes(int32(job, "minimum_nodes", 1));
    }
    if (job.has("maximum_nodes")) {
      b.setMaxNodes(int32(job, "maximum_nodes", 1));
    }
    if (job.has("tasks")) {
      b.setNumTasks(int32(job, "tasks", 1));
    }
    if (job.has("cpus_per_task")) {
      b.setCpusPerTask(int32(job, "cpus_per_task", 1));
    }
    if (job.has("tasks_per_node")) {
      b.setNtasksPerNode(int32(job, "tasks_per_node", 1));
    }
    if (job.has("memory_per_node")) {
      b.setMemPerNodeMb(number(job, "memory_per_node", 0));
    }
    if (job.has("memory_per_cpu")) {
      b.setMemPerCpuMb(number(job, "memory_per_cpu", 0));
    }
    if (job.has("requeue")) {
      b.setRequeue(job.get("requeue").asBoolean());
    }
    if (job.has("kill_warning_signal")) {
      int sig = Signals.parse(text(job, "kill_warning_signal", ""));
      if (sig < 0) {
        throw new RestError(400, SlurmError.REST_FAIL_PARSING, "unknown kill_warning_signal");
      }
      b.setWarnSignal(sig).setWarnTimeS(int32(job, "kill_warning_delay", 60));
    }
    if (job.has("licenses")) {
      b.setLicenses(text(job, "licenses", ""));
    }
    List<String> ignored = job.propertyNames().stream()
        .filter(n -> !KNOWN.contains(n) && !(allocation && n.equals("script")) && asks(job.get(n))).sorted().toList();
    return new Parsed(b.build(), ignored);
  }

  /**
   * Whether a field asks for anything: generated clients send every list empty and leave
   * numbers unset ({@code "flags":[]}, {@code {"set":false}}), which needs no warning.
   */
  private static boolean asks(JsonNode v) {
    return !(v.isNull() || (v.isContainer() && v.isEmpty()) || (v.isObject() && !v.path("set").asBoolean(true)));
  }

  /** A string field; an array (v0.0.42's csv_string, open_mode) joined with commas. */
  private static String text(JsonNode o, String field, String otherwise) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull() || (v.isArray() && v.isEmpty())) {
      return otherwise;
    }
    return csv(o, field);
  }

  private static String csv(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return "";
    }
    if (v.isArray()) {
      v.forEach(x -> scalar(field, x));
    } else {
      scalar(field, v);
    }
    return noNul(field, Json.csv(v));
  }

  /** A string, number or boolean; an object (or a list inside a list) is the client's error. */
  private static JsonNode scalar(String field, JsonNode v) {
    if (v.isContainer()) {
      throw new RestError(400, SlurmError.REST_INVALID_JOBS_DESC,
          "field " + field + " must be a string (or a list of strings)");
    }
    return v;
  }

  /** A C string cannot hold a NUL: Slurm would cut the value there; Corral refuses it. */
  private static String noNul(String field, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new RestError(400, SlurmError.REST_INVALID_JOBS_DESC, "field " + field + " contains a NUL character");
    }
    return value;
  }

  /** A plain number or {set,infinite,number}; a struct not set gives {@code otherwise}. */
  static long number(JsonNode o, String field, long otherwise) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return otherwise;
    }
    if (v.isObject()) {
      if (!v.path("set").asBoolean(true)) {
        return otherwise;
      }
      v = v.get("number");
    }
    return Json.whole(v, field);
  }

  /** {@link #number} for a 32-bit field: a value beyond it is refused, not cut. */
  static int int32(JsonNode o, String field, long otherwise) {
    long n = number(o, field, otherwise);
    if (n < Integer.MIN_VALUE || n > 0xFFFFFFFFL) {
      throw new RestError(400, SlurmError.REST_FAIL_PARSING, "field " + field + " is out of range (" + n + ")");
    }
    return (int) n;
  }

  /** A time limit in minutes, plain or {set,infinite,number}; infinite is Slurm's INFINITE. */
  static int timeLimit(JsonNode v) {
    if (v.isObject() && v.path("infinite").asBoolean(false)) {
      return (int) NoVal.INFINITE32;
    }
    tools.jackson.databind.node.ObjectNode holder = Json.MAPPER.createObjectNode();
    holder.set("time_limit", v);
    return int32(holder, "time_limit", NoVal.INFINITE32);
  }

  private static int positive(String field, String s) {
    if (!s.trim().matches("[0-9]{1,9}") || Integer.parseInt(s.trim()) < 1) {
      throw new RestError(400, SlurmError.REST_FAIL_PARSING, "field " + field + " must be a count or a range N-M");
    }
    return Integer.parseInt(s.trim());
  }
}
