package org.corral.slurmd.step;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.corral.protocol.CpuList;
import java.util.Set;
import org.corral.common.OutputPathPattern;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.StepSpec;
import org.corral.slurmd.launch.ShellQuoting;
import org.corral.slurmd.launch.UserLaunch;

/**
 * Everything needed to start this node's tasks of a step, resolved from a LaunchTasksRequest:
 * who runs them, where, and per task its environment and command ({@code words}: NAME=value
 * entries, then the command) and its standard files ({@link UserLaunch#INHERIT}: the stream to
 * srun). Output files are created (or truncated) once per step by {@code files} before any task
 * starts, and then opened by every task for appending, so tasks sharing a file do not overwrite
 * each other.
 */
record StepPlan(StepKey key, int uid, int gid, String workDir, String umask, List<TaskPlan> tasks,
    List<FileCheck> files) {

  /**
   * One task: ids, words (its {@code environmentSize} NAME=value entries, then its command), and
   * where its stdin/stdout/stderr go ("" stderr: with stdout).
   */
  record TaskPlan(int taskId, int localId, List<String> words, int environmentSize, String stdIn, String stdOut,
      String stdErr, boolean readsSrunStdin, boolean pty) {

    List<String> environment() {
      return words.subList(0, environmentSize);
    }

    List<String> command() {
      return words.subList(environmentSize, words.size());
    }
  }

  /** A file to check and prepare as the user before the tasks start: op truncate, append or read. */
  record FileCheck(String what, String path, String op) {}

  private static final String DEV_NULL = "/dev/null";
  private static final String SCRIPT = "/usr/bin/script";
  private static final String TASKSET = "/usr/bin/taskset";

  private static java.util.BitSet bits(List<Integer> cpus) {
    java.util.BitSet out = new java.util.BitSet();
    cpus.forEach(out::set);
    return out;
  }

  /**
   * Resolves a request or throws IllegalArgumentException with the reason (sent to srun).
   *
   * @param hostName the short host name, for %N
   * @param jobCpus the CPUs the job holds on this node, for --cpu-bind
   */
  static StepPlan of(LaunchTasksRequest request, String nodeName, String hostName, String confPath,
      List<Integer> jobCpus) {
    return of(request, nodeName, hostName, confPath, jobCpus, List.of());
  }

  /** @param taskHooks the words that run TaskProlog/TaskEpilog around each task's command (none: empty) */
  static StepPlan of(LaunchTasksRequest request, String nodeName, String hostName, String confPath,
      List<Integer> jobCpus, List<String> taskHooks) {
    return of(request, nodeName, hostName, confPath, jobCpus, taskHooks, org.corral.slurmd.gres.GresInventory.none());
  }

  /** @param gres the node's generic resources: which GPUs are near a task's CPUs (--gpu-bind=closest) */
  static StepPlan of(LaunchTasksRequest request, String nodeName, String hostName, String confPath,
      List<Integer> jobCpus, List<String> taskHooks, org.corral.slurmd.gres.GresInventory gres) {
    JobInfo job = request.getJob();
    StepSpec spec = request.getSpec();
    StepKey key = new StepKey(job.getJobId(), request.getStep().getStepId());
    if (job.getJobId() == 0) {
      throw new IllegalArgumentException("launch request without a job id");
    }
    if (request.getTaskIdsCount() == 0) {
      throw new IllegalArgumentException("no tasks to launch on " + nodeName);
    }
    String workDir = spec.getWorkDir().isEmpty() ? job.getWorkDir() : spec.getWorkDir();
    if (!workDir.startsWith("/")) {
      throw new IllegalArgumentException("working directory is not an absolute path: '" + workDir + "'");
    }
    if (workDir.indexOf('\0') >= 0 || spec.getStdOut().indexOf('\0') >= 0 || spec.getStdErr().indexOf('\0') >= 0
        || spec.getStdIn().indexOf('\0') >= 0) {
      throw new IllegalArgumentException("NUL character in the working directory or a file name");
    }
    boolean append = switch (spec.getOpenMode()) {
      case "", "truncate" -> false;
      case "append" -> true;
      default -> throw new IllegalArgumentException("unknown open mode: " + spec.getOpenMode());
    };
    MultiProg multiProg = spec.getMultiProg().isEmpty() ? null : MultiProg.parse(spec.getMultiProg());
    if (multiProg == null && spec.getArgvCount() == 0) {
      throw new IllegalArgumentException("no command to run");
    }
    if (spec.getPty() && !Files.isExecutable(Path.of(SCRIPT))) {
      throw new IllegalArgumentException("--pty needs script(1) (util-linux) on " + nodeName);
    }
    List<Optional<String>> binding = CpuBinding.perTask(spec.getCpuBind(), jobCpus,
        request.getTaskIdsCount(), request.getStep().getCpusPerTask());
    StepEnvironment environment = new StepEnvironment(request, nodeName, confPath);
    String step = StepIds.name(key.stepId());

    List<TaskPlan> tasks = new ArrayList<>();
    Set<FileCheck> files = new LinkedHashSet<>();
    String outputOp = append ? "append" : "truncate";
    for (int local = 0; local < request.getTaskIdsCount(); local++) {
      int task = request.getTaskIds(local);
      var fields = new OutputPathPattern.Fields(job.getJobId(), job.getName(), job.getUserName(), hostName,
          step, request.getNodeIndex(), task);
      String out = stream(spec.getStdOut(), task, workDir, fields);
      String err = spec.getStdErr().isEmpty()
          ? (isPattern(spec.getStdOut()) ? "" : out)
          : stream(spec.getStdErr(), task, workDir, fields);
      if (spec.getPty() && task != 0) {
        // srun(1) --pty: "Implicitly sets --error and --output to /dev/null for all tasks except task zero".
        out = DEV_NULL;
        err = DEV_NULL;
      }
      if (err.equals(out) && isFile(out)) {
        err = ""; // one descriptor for both, as in Slurm
      }
      String in;
      boolean readsStdin;
      if (isPattern(spec.getStdIn())) {
        in = OutputPathPattern.resolve(workDir, spec.getStdIn(), fields);
        readsStdin = false;
        files.add(new FileCheck("stdin", in, "read"));
      } else {
        int reader = spec.getStdIn().equals("none") ? -2
            : isTaskNumber(spec.getStdIn()) ? Integer.parseInt(spec.getStdIn()) : spec.getStdinTask();
        readsStdin = reader == -1 || reader == task;
        in = readsStdin ? UserLaunch.INHERIT : DEV_NULL;
      }
      if (isFile(out)) {
        files.add(new FileCheck("stdout", out, outputOp));
      }
      if (isFile(err)) {
        files.add(new FileCheck("stderr", err, outputOp));
      }
      List<String> argv = multiProg != null ? multiProg.argv(task) : spec.getArgvList();
      if (argv.isEmpty() || argv.stream().anyMatch(a -> a.indexOf('\0') >= 0)) {
        throw new IllegalArgumentException("invalid command for task " + task);
      }
      boolean pty = spec.getPty() && task == 0;
      List<String> words = new ArrayList<>(environment.forTask(task, local,
          gres.gpusNear(binding.get(local).map(CpuList::parse).orElseGet(() -> bits(jobCpus)))));
      int environmentSize = words.size();
      words.addAll(taskHooks);
      words.addAll(command(argv, binding.get(local), pty));
      tasks.add(new TaskPlan(task, local, List.copyOf(words), environmentSize, in, out, err, readsStdin, pty));
    }
    return new StepPlan(key, job.getUserId(), job.getGroupId(), workDir, UserLaunch.umask(spec.getEnvironmentList()),
        List.copyOf(tasks), List.copyOf(files));
  }

  /**
   * The task's command line: its argv, on a pseudo-terminal through script(1) for --pty, pinned
   * through taskset(1) for --cpu-bind. The launcher execs it as it is (a name holding '=' fails
   * with execve's message, as in Slurm).
   */
  private static List<String> command(List<String> argv, Optional<String> cpus, boolean pty) {
    List<String> command = new ArrayList<>();
    cpus.ifPresent(list -> command.addAll(List.of(TASKSET, "-c", list)));
    if (pty) {
      StringBuilder line = new StringBuilder("exec");
      argv.forEach(word -> line.append(' ').append(ShellQuoting.quote(word)));
      command.addAll(List.of(SCRIPT, "-q", "-e", "-c", line.toString(), DEV_NULL));
      return command;
    }
    command.addAll(argv);
    return command;
  }

  /**
   * An -o/-e value for one task: "" or "all" stream to srun, "none" discards, a task number
   * streams that task's output only, anything else is a file pattern.
   */
  private static String stream(String value, int task, String workDir, OutputPathPattern.Fields fields) {
    if (value.isEmpty() || value.equals("all")) {
      return UserLaunch.INHERIT;
    }
    if (value.equals("none")) {
      return DEV_NULL;
    }
    if (isTaskNumber(value)) {
      return Integer.parseInt(value) == task ? UserLaunch.INHERIT : DEV_NULL;
    }
    return OutputPathPattern.resolve(workDir, value, fields);
  }

  private static boolean isPattern(String value) {
    return !value.isEmpty() && !value.equals("all") && !value.equals("none") && !isTaskNumber(value);
  }

  private static boolean isTaskNumber(String value) {
    return !value.isEmpty() && value.length() < 10 && value.chars().allMatch(Character::isDigit);
  }

  private static boolean isFile(String path) {
    return !path.isEmpty() && !path.equals(UserLaunch.INHERIT) && !path.equals(DEV_NULL);
  }
}
