package org.corral.cli.scontrol;

import java.io.IOException;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmDuration;
import org.corral.common.SlurmError;
import org.corral.common.TimeSpec;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.UpdateJobRequest;

/**
 * {@code scontrol update JobId=LIST KEY=VALUE...} for Priority, Nice, TimeLimit, JobName (Name),
 * Comment, Dependency and StartTime (BeginTime): values checked here with scontrol's messages,
 * permissions by the controller; one line per job it refuses ("... for job N").
 */
final class JobUpdate {
  private JobUpdate() {}

  static int run(List<String> words, Cli cli) {
    UpdateJobRequest.Builder req = UpdateJobRequest.newBuilder();
    Map<String, String> changes = new LinkedHashMap<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = eq < 0 ? w.toLowerCase(Locale.ROOT) : w.substring(0, eq).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : w.substring(eq + 1);
      try {
        switch (key) {
          case "jobid" -> {
            for (String id : value.split(",")) {
              req.addJobIds(Integer.parseUnsignedInt(id));
            }
          }
          case "priority" -> changes.put("priority", Long.toString(number(value, 0, 0xFFFFFFFEL)));
          case "nice" -> changes.put("nice", Long.toString(number(value, -2147483645L, 2147483645L)));
          case "timelimit" -> changes.put("timelimit", Long.toString(minutes(value, cli)));
          case "jobname", "name" -> changes.put("jobname", value);
          case "comment" -> changes.put("comment", value);
          case "dependency" -> changes.put("dependency", value);
          case "starttime", "begintime" -> changes.put("starttime",
              Long.toString(TimeSpec.parse(value, ZonedDateTime.now(cli.clock()))));
          default -> {
            cli.err().println("Update of this parameter is not supported: " + w);
            cli.err().println("Request aborted");
            return 1;
          }
        }
      } catch (Invalid e) {
        return 1;
      } catch (IllegalArgumentException e) {
        cli.err().println("Invalid input: " + w);
        cli.err().println("Request aborted");
        return 1;
      }
    }
    if (changes.isEmpty()) {
      cli.err().println("No changes specified");
      return 1;
    }
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setUpdateJob(req.putAllChanges(changes)).build());
    } catch (IOException e) {
      cli.err().println("slurm_update error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    if (r.getErrorCode() != 0) {
      cli.err().println("slurm_update error: " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    int rc = 0;
    List<JobResult> failed = new ArrayList<>();
    for (JobResult res : r.getJobResults().getResultsList()) {
      if (res.getErrorCode() != 0) {
        failed.add(res);
        rc = 1;
      }
    }
    failed.forEach(f -> cli.err().println(SlurmError.messageFor(f.getErrorCode()) + " for job "
        + Integer.toUnsignedString(f.getJobId())));
    return rc;
  }

  private static long number(String v, long min, long max) {
    long n = Long.parseLong(v.trim());
    if (n < min || n > max) {
      throw new IllegalArgumentException(v);
    }
    return n;
  }

  private static long minutes(String v, Cli cli) throws Invalid {
    try {
      return SlurmDuration.parseMinutes(v);
    } catch (IllegalArgumentException e) {
      cli.err().println("scontrol: error: Invalid TimeLimit value");
      throw new Invalid();
    }
  }

  /** Already reported. */
  private static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;
  }
}
