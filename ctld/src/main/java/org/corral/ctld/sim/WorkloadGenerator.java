package org.corral.ctld.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Synthetic rigid-job workloads after Lublin and Feitelson ("The workload on parallel
 * supercomputers", JPDC 2003), simplified: a quarter of the jobs are serial, the others' sizes
 * are log-uniform in [1, machine] with a strong pull to powers of two; run times are drawn from
 * a two-stage hyper-gamma whose long stage grows more likely with size; arrivals are a Poisson
 * process at the given load. Users over-estimate run times, as measured in real logs.
 */
public final class WorkloadGenerator {
  private WorkloadGenerator() {}

  /**
   * @param jobs how many
   * @param machineProcs processors of the machine (sizes are at most this)
   * @param load offered load (processor-seconds asked per processor-second of machine), e.g. 0.8
   */
  public static List<SimJob> generate(int jobs, int machineProcs, double load, long seed) {
    Random rnd = new Random(seed);
    List<SimJob> out = new ArrayList<>(jobs);
    double maxLog = Math.log(Math.max(2, machineProcs)) / Math.log(2);
    double meanWork = 0;
    List<long[]> shapes = new ArrayList<>(jobs);
    for (int i = 0; i < jobs; i++) {
      int procs;
      if (rnd.nextDouble() < 0.24) {
        procs = 1;
      } else {
        double l = rnd.nextDouble() * maxLog;
        procs = rnd.nextDouble() < 0.75 ? 1 << (int) Math.round(l) : (int) Math.round(Math.pow(2, l));
        procs = Math.max(1, Math.min(machineProcs, procs));
      }
      double pLong = Math.min(0.9, 0.2 + 0.6 * Math.log(procs + 1) / Math.log(machineProcs + 1));
      double logRun = rnd.nextDouble() < pLong ? gamma(rnd, 16.0, 0.5) : gamma(rnd, 4.2, 0.94);
      long runtime = Math.max(1, Math.min(86400, Math.round(Math.exp(logRun))));
      shapes.add(new long[] {procs, runtime});
      meanWork += (double) procs * runtime / jobs;
    }
    double meanGap = meanWork / (machineProcs * load);
    long t = 0;
    for (int i = 0; i < jobs; i++) {
      t += Math.round(-Math.log(1 - rnd.nextDouble()) * meanGap);
      long runtime = shapes.get(i)[1];
      long requested = Math.max(60, Math.round(runtime * (1 + rnd.nextDouble() * 3) / 60.0) * 60);
      out.add(new SimJob(i + 1, t, (int) shapes.get(i)[0], runtime, requested, rnd.nextInt(32)));
    }
    return out;
  }

  /** A gamma variate of the given shape and scale (Marsaglia and Tsang). */
  private static double gamma(Random rnd, double shape, double scale) {
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = rnd.nextGaussian();
      double v = Math.pow(1 + c * x, 3);
      if (v > 0 && Math.log(rnd.nextDouble()) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return d * v * scale;
      }
    }
  }
}
