package org.corral.cli.seff;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.JobStates;
import org.corral.cli.format.LocalCluster;
import org.corral.cli.format.Printf;
import org.corral.protocol.JobEfficiency;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * seff JOBID: a finished job's CPU and memory efficiency from its accounting record, as Slurm's
 * contributed seff script reports it: CPU time is the user and system time of all its steps,
 * memory the largest step's sum of its tasks' peak RSS, each against what the job was allocated
 * (cores x wall-clock time, allocated memory).
 */
public final class SeffCommand implements CliCommand {
  static final String VERSION = "2.1";

  @Override
  public int run(List<String> args, Cli cli) {
    boolean debug = false;
    WasteReport.Options waste = null;
    int i = 0;
    for (; i < args.size() && args.get(i).startsWith("-") && args.get(i).length() > 1; i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        i++;
        break;
      }
      if (a.startsWith("--")) { // Corral's waste report: seff --waste [--days=N --cpu=P --mem=P --user=U]
        try {
          waste = WasteReport.Options.with(waste, a);
        } catch (IllegalArgumentException e) {
          cli.err().println("seff: " + e.getMessage());
          return usage(cli);
        }
        continue;
      }
      for (char c : a.substring(1).toCharArray()) {
        switch (c) {
          case 'v' -> {
            cli.out().println("seff Version " + VERSION);
            return 1;
          }
          case 'd' -> debug = true;
          case 'h' -> {
            return usage(cli);
          }
          default -> {
            cli.err().println("Unknown option: " + c);
            return usage(cli);
          }
        }
      }
    }
    List<String> rest = args.subList(i, args.size());
    if (waste != null && rest.isEmpty()) {
      return new WasteReport(cli, waste).run();
    }
    if (rest.size() != 1) {
      return usage(cli);
    }
    AcctJob job;
    try {
      Response r = cli.accounting().get().call(Request.newBuilder().setJobQuery(JobQueryRequest.newBuilder()
          .addJobIds(rest.get(0)).setAllUsers(true).addAllClusters(LocalCluster.of(cli.env())).setPageSize(1))
          .build());
      if (r.getErrorCode() != 0) {
        cli.err().println("Job not found.");
        return 2;
      }
      if (r.getJobQuery().getJobsCount() == 0) {
        cli.err().println("Job not found.");
        return 2;
      }
      job = r.getJobQuery().getJobs(0);
    } catch (IOException | UncheckedIOException e) {
      cli.err().println("seff: error: Problem talking to the database: " + e.getMessage());
      return 1;
    }
    long now = cli.clock().instant().getEpochSecond();
    cli.out().print(report(job, now, debug));
    cli.out().flush();
    return 0;
  }

  private static int usage(Cli cli) {
    cli.out().print("Usage: seff [Options] <Jobid>\n       Options:\n       -h    Help menu\n"
        + "       -v    Version\n       -d    Debug mode: display raw Slurm data\n"); // the script's, byte for byte
    return 1;
  }

  /** What seff prints for {@code job}. */
  static String report(AcctJob job, long now, boolean debug) {
    JobEfficiency e = JobEfficiency.of(job, now);
    long ncpus = e.ncpus();
    long nnodes = e.nnodes();
    String state = JobStates.name(job.getState());
    long walltime = e.walltime();
    int exit = job.getExitStatus() >> 8;
    double memKb = e.memKb();
    double maxMem = e.maxMem();
    double aveMem = e.aveMem();
    long cput = e.cput();
    String user = job.getUserName().isEmpty() ? Integer.toUnsignedString(job.getUserId()) : job.getUserName();
    String group = job.getGroupName().isEmpty() ? Integer.toUnsignedString(job.getGroupId()) : job.getGroupName();
    String arrayId = job.getArrayJobId() != 0 ? job.getArrayJobId() + "_" + job.getArrayTaskId() : "";
    long allocKb = e.allocKb();
    StringBuilder out = new StringBuilder();
    if (debug) {
      long reqKb = job.getReqMemMb() * 1024;
      out.append("Slurm data: JobID ArrayJobID User Group State Clustername Ncpus Nnodes Ntasks Reqmem PerNode Cput"
          + " Walltime Mem ExitStatus\n");
      out.append("Slurm data: ").append(Integer.toUnsignedString(job.getJobId())).append(' ').append(arrayId)
          .append(' ').append(user).append(' ').append(group).append(' ').append(state).append(' ')
          .append(job.getCluster()).append(' ').append(ncpus).append(' ').append(nnodes).append(' ').append(reqKb)
          .append(' ').append(job.getMemPerCpu() ? 0 : 1).append(' ').append(cput).append(' ').append(walltime)
          .append(' ').append(perlNumber(memKb)).append(' ').append(exit).append("\n\n");
    }
    out.append("Job ID: ").append(Integer.toUnsignedString(job.getJobId())).append('\n');
    if (!arrayId.isEmpty()) {
      out.append("Array Job ID: ").append(arrayId).append('\n');
    }
    out.append("Cluster: ").append(job.getCluster()).append('\n');
    out.append("User/Group: ").append(user).append('/').append(group).append('\n');
    boolean pending = job.getState() == JobState.PENDING;
    if (pending || job.getState() == JobState.RUNNING) {
      out.append("State: ").append(state).append('\n');
    } else {
      out.append("State: ").append(state).append(" (exit code ").append(exit).append(")\n");
    }
    if (ncpus == 1) {
      out.append("Cores: 1\n");
    } else {
      out.append("Nodes: ").append(nnodes).append('\n');
      out.append("Cores per node: ").append(ncpus / nnodes).append('\n');
    }
    if (pending) {
      return out.append("Efficiency not available for jobs in the PENDING state.\n").toString();
    }
    long coreWall = e.coreWall();
    double cpuEff = e.cpuPercent();
    out.append("CPU Utilized: ").append(duration(cput)).append('\n');
    out.append("CPU Efficiency: ").append(Printf.fixed(cpuEff, 2)).append("% of ").append(duration(coreWall))
        .append(" core-walltime\n");
    out.append("Job Wall-clock time: ").append(duration(walltime)).append('\n');
    out.append("Memory Utilized: ").append(kbytes(memKb)).append('\n');
    double memEff = e.memPercent();
    out.append("Memory Efficiency: ").append(Printf.fixed(memEff, 2)).append("% of ").append(kbytes(allocKb))
        .append(" (").append(job.getMemPerCpu() ? kbytes((double) allocKb / ncpus) + "/core"
            : kbytes((double) allocKb / nnodes) + "/node").append(")\n");
    if (maxMem != 0 && maxMem > aveMem) {
      out.append("The task which had the largest memory consumption differs by ")
          .append(Printf.fixed(maxMem / aveMem * 100, 2))
          .append("% from the average task max memory consumption\n");
    }
    if (job.getState() == JobState.RUNNING) {
      out.append("WARNING: Efficiency statistics can only be obtained after the job has ended as seff tool is"
          + " based on the accounting database data.\n");
    }
    return out.toString();
  }

  /** Seconds as [D-]HH:MM:SS. */
  static String duration(long t) {
    long days = t / 86400;
    t -= days * 86400;
    long hours = t / 3600;
    t -= hours * 3600;
    long minutes = t / 60;
    long seconds = t % 60;
    return (days < 1 ? "" : days + "-") + two(hours) + ":" + two(minutes) + ":" + two(seconds);
  }

  private static String two(long v) {
    return v < 10 ? "0" + v : Long.toString(v);
  }

  /** KiB with two decimals in the largest unit of 1024 that keeps the value at least 1. */
  static String kbytes(double kb) {
    if (kb == 0) {
      return "0.00 MB";
    }
    int exp = (int) (Math.log(kb) / Math.log(1024));
    String[] pre = {"K", "M", "G", "T", "P", "E"};
    String unit = exp >= 0 && exp < pre.length ? pre[exp] : "";
    return Printf.fixed(kb / Math.pow(1024, exp), 2) + " " + unit + "B";
  }

  /** A number as Perl prints it in a string (integers without a fraction). */
  private static String perlNumber(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
