package org.corral.ctld.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;

/**
 * {@code corral simulate}: runs a workload through the scheduler on a virtual clock and
 * prints what it measured.
 * <pre>
 * corral simulate (--swf FILE | --generate JOBS [--load L] [--seed S])
 *                 [--nodes N] [--cpus C] [--scheduler backfill|builtin]
 *                 [--bf-max-job-test N] [--bf-window MINUTES]
 * </pre>
 */
public final class SimulateCommand {
  static final String USAGE = """
      usage: corral simulate (--swf FILE | --generate JOBS [--load L] [--seed S])
                             [--nodes N] [--cpus C] [--scheduler backfill|builtin]
                             [--bf-max-job-test N] [--bf-window MINUTES]""";

  private SimulateCommand() {}

  public static int run(List<String> args, PrintStream out, PrintStream err) {
    Path swf = null;
    int generate = 0;
    double load = 0.8;
    long seed = 1;
    int nodes = 128;
    int cpus = 8;
    boolean backfill = true;
    int maxJobTest = 500;
    int window = 1440;
    try {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        String v = i + 1 < args.size() ? args.get(i + 1) : null;
        switch (a) {
          case "--swf" -> swf = Path.of(need(a, v));
          case "--generate" -> generate = Integer.parseInt(need(a, v));
          case "--load" -> load = Double.parseDouble(need(a, v));
          case "--seed" -> seed = Long.parseLong(need(a, v));
          case "--nodes" -> nodes = Integer.parseInt(need(a, v));
          case "--cpus" -> cpus = Integer.parseInt(need(a, v));
          case "--scheduler" -> backfill = switch (need(a, v)) {
            case "backfill" -> true;
            case "builtin" -> false;
            default -> throw new IllegalArgumentException("--scheduler is backfill or builtin, not " + v);
          };
          case "--bf-max-job-test" -> maxJobTest = Integer.parseInt(need(a, v));
          case "--bf-window" -> window = Integer.parseInt(need(a, v));
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
        i++;
      }
      if ((swf == null) == (generate == 0) || nodes < 1 || cpus < 1 || maxJobTest < 1 || window < 1
          || load <= 0) {
        throw new IllegalArgumentException("give --swf FILE or --generate JOBS, and positive sizes");
      }
    } catch (IllegalArgumentException e) {
      err.println("corral simulate: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    List<SimJob> jobs;
    try {
      jobs = swf != null ? SwfReader.read(swf) : WorkloadGenerator.generate(generate, nodes * cpus, load, seed);
    } catch (IOException e) {
      err.println("corral simulate: " + e.getMessage());
      return 1;
    }
    int machine = nodes * cpus;
    List<SimJob> fitting = jobs.stream().filter(j -> j.procs() <= machine).toList();
    if (fitting.size() < jobs.size()) {
      err.println("corral simulate: left out " + (jobs.size() - fitting.size())
          + " jobs larger than the machine (" + machine + " processors)");
    }
    out.print(Simulator.run(fitting, nodes, cpus, config(backfill, maxJobTest, window)).report());
    return 0;
  }

  static SchedulingConfig config(boolean backfill, int maxJobTest, int windowMin) {
    return new SchedulingConfig(false, SchedulingConfig.Weights.NONE, 7 * 86400, false, Set.of(), 7 * 86400, 300,
        backfill, new SchedulingConfig.Backfill(30, maxJobTest, 60, windowMin, 0, 100));
  }

  private static String need(String option, String value) {
    if (value == null) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return value;
  }
}
