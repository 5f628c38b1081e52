package org.corral.slurmd.launch;

import java.util.List;
import org.corral.common.OutputPathPattern;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.LaunchBatchRequest;

/**
 * Everything the job's shell needs, resolved from a launch request: who runs it, where, with
 * which files and environment. Paths are absolute; {@code stdErr} is empty when stderr shares
 * stdout's file.
 */
record LaunchPlan(
    int jobId,
    int uid,
    int gid,
    String workDir,
    String stdIn,
    String stdOut,
    String stdErr,
    boolean append,
    String umask,
    String script,
    List<String> environment,
    List<String> argv) {

  static final String DEFAULT_OUTPUT = "slurm-%j.out";

  /**
   * Resolves a request, or throws IllegalArgumentException saying what is wrong with it.
   *
   * @param hostName the short host name, for %N
   */
  static LaunchPlan of(LaunchBatchRequest request, String nodeName, String hostName) {
    JobInfo job = request.getJob();
    JobSpec spec = request.getSpec();
    if (job.getJobId() == 0) {
      throw new IllegalArgumentException("launch request without a job id");
    }
    if (spec.getScript().isEmpty()) {
      throw new IllegalArgumentException("job " + job.getJobId() + " has no batch script");
    }
    String workDir = !job.getWorkDir().isEmpty() ? job.getWorkDir() : spec.getWorkDir();
    if (!workDir.startsWith("/")) {
      throw new IllegalArgumentException("working directory is not an absolute path: '" + workDir + "'");
    }
    boolean append = switch (spec.getOpenMode()) {
      case "", "truncate" -> false;
      case "append" -> true;
      default -> throw new IllegalArgumentException("unknown open mode: " + spec.getOpenMode());
    };
    String name = !job.getName().isEmpty() ? job.getName() : spec.getName();
    boolean array = job.getArrayJobId() != 0;
    var fields = new OutputPathPattern.Fields(job.getJobId(), name, job.getUserName(), hostName)
        .inArray(job.getArrayJobId(), array ? job.getArrayTaskId() : -1);
    String defaultOut = array ? "slurm-%A_%a.out" : DEFAULT_OUTPUT; // Slurm's default for arrays
    String out = OutputPathPattern.resolve(workDir, spec.getStdOut().isEmpty() ? defaultOut : spec.getStdOut(), fields);
    String err = spec.getStdErr().isEmpty() ? "" : OutputPathPattern.resolve(workDir, spec.getStdErr(), fields);
    String in = spec.getStdIn().isEmpty() ? "/dev/null" : OutputPathPattern.resolve(workDir, spec.getStdIn(), fields);
    String umask = UserLaunch.umask(spec.getEnvironmentList());
    List<String> env = BatchEnvironment.of(request, nodeName, workDir);
    for (String text : List.of(workDir, out, err, in, spec.getScript())) {
      requireNoNul(text);
    }
    spec.getArgvList().forEach(LaunchPlan::requireNoNul);
    return new LaunchPlan(job.getJobId(), job.getUserId(), job.getGroupId(), workDir, in, out,
        err.equals(out) ? "" : err, append, umask, spec.getScript(), env, spec.getArgvList());
  }


  private static void requireNoNul(String text) {
    if (text.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("NUL character in a path, the script or an argument");
    }
  }
}
