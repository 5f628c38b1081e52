package org.corral.cli.scontrol;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.format.SlurmTimes;
import org.corral.common.config.ConfigException;
import org.corral.common.config.NodeConfig;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol listpids [JOB[.STEP]] [NODE]} and {@code scontrol pidinfo PID}: the processes of
 * the jobs the node daemons of this host run (several daemons on one host: every node whose
 * SlurmdSpoolDir is here, or the one named), with Slurm 22.05's columns and messages.
 */
final class PidCommands {
  private static final String HEADER = "PID      JOBID    STEPID   LOCALID GLOBALID";

  private PidCommands() {}

  static int listpids(List<String> args, Cli cli) {
    String jobArg = args.isEmpty() || args.get(0).equals("*") ? null : args.get(0);
    String nodeArg = args.size() > 1 ? args.get(1) : null;
    Integer job = null;
    String step = null;
    if (jobArg != null) {
      int dot = jobArg.indexOf('.');
      String id = dot < 0 ? jobArg : jobArg.substring(0, dot);
      if (!id.matches("\\d+")) {
        cli.err().println("\"" + jobArg + "\" does not look like a jobid");
        return 1;
      }
      job = Integer.parseInt(id);
      step = dot < 0 ? null : jobArg.substring(dot + 1);
    }
    cli.out().println(HEADER);
    if (step != null && !step.matches("\\d+")) {
      cli.err().println("\"" + jobArg + "\" does not look like a stepid");
      return 0; // as the reference
    }
    List<NodeProcesses.Proc> procs = processes(cli, nodeArg);
    if (procs == null) {
      return 1;
    }
    String where = nodeArg != null ? nodeArg : "(null)";
    List<NodeProcesses.Proc> shown = new ArrayList<>();
    for (NodeProcesses.Proc p : procs) {
      if ((job == null || p.jobId() == job) && (step == null || p.step().equals(step))) {
        shown.add(p);
      }
    }
    if (shown.isEmpty() && job != null) {
      cli.err().println(step != null ? "StepId=" + job + "." + step + " does not exist on node " + where + "."
          : nodeArg != null ? "JobId=" + job + " does not exist on node " + where + "."
          : "There are no steps for job " + job + " on node (null).");
      return 1;
    }
    for (NodeProcesses.Proc p : shown) {
      cli.out().println(String.format("%-8d %-8d %-8s %-7s %-8s", p.pid(), p.jobId(), p.step(), p.localId(),
          p.globalId()));
    }
    return 0;
  }

  static int pidinfo(List<String> args, Cli cli) {
    if (args.isEmpty()) {
      cli.err().println("missing argument for keyword:pidinfo");
      return 1;
    }
    List<NodeProcesses.Proc> procs = args.get(0).matches("\\d+") ? processes(cli, null) : List.of();
    NodeProcesses.Proc found = procs == null ? null : procs.stream()
        .filter(p -> Long.toString(p.pid()).equals(args.get(0))).findFirst().orElse(null);
    if (found == null) {
      cli.err().println("Failed to locate job for requested pid");
      return 1;
    }
    JobInfo j;
    try {
      Response r = cli.controller().get().call(Request.newBuilder().setJobInfo(
          JobInfoRequest.newBuilder().addJobIds(found.jobId())).build());
      if (r.getErrorCode() != 0 || r.getJobInfo().getJobsCount() == 0) {
        cli.err().println("Failed to locate job for requested pid");
        return 1;
      }
      j = r.getJobInfo().getJobs(0);
    } catch (IOException e) {
      cli.err().println("Failed to locate job for requested pid");
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    cli.out().println("Slurm job id " + found.jobId() + " ends at "
        + SlurmTimes.iso(j.getEndTime(), cli.clock().getZone(), "Unknown"));
    cli.out().println("slurm_get_rem_time is " + Math.max(0, j.getEndTime() - now));
    return 0;
  }

  /** The processes under this host's node daemons (or the named one's); null once an error is printed. */
  private static List<NodeProcesses.Proc> processes(Cli cli, String nodeName) {
    SlurmConfig cfg;
    try {
      cfg = SlurmConfig.loadShared(SlurmConfig.defaultPath(cli.env()));
    } catch (ConfigException e) {
      cli.err().println("scontrol: error: " + e.getMessage());
      return null;
    }
    String host = shortHostName();
    NodeProcesses reader = new NodeProcesses(Path.of("/proc"));
    java.util.Set<Path> spools = new java.util.LinkedHashSet<>(); // nodes may share one
    for (NodeConfig n : cfg.nodes()) {
      if (nodeName == null || n.name().equals(nodeName)) {
        spools.add(Path.of(SlurmConfig.expandNodeTemplate(cfg.slurmdSpoolDir(), n.name(), host)));
      }
    }
    List<NodeProcesses.Proc> out = new ArrayList<>();
    spools.forEach(spool -> out.addAll(reader.list(spool)));
    return out;
  }

  private static String shortHostName() {
    try {
      String h = java.net.InetAddress.getLocalHost().getHostName();
      int dot = h.indexOf('.');
      return dot < 0 ? h : h.substring(0, dot);
    } catch (IOException e) {
      return "localhost";
    }
  }
}
