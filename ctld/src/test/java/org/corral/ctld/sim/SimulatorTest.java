package org.corral.ctld.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planner on a virtual clock: what backfill promises, and what it buys. */
class SimulatorTest {
  /** The generated workload with run times equal to the limits asked for (whole minutes). */
  private static List<SimJob> exact(List<SimJob> jobs) {
    return jobs.stream().map(j -> {
      long limit = Math.max(1, (j.requested() + 59) / 60) * 60;
      return new SimJob(j.id(), j.submit(), j.procs(), limit, limit, j.user());
    }).toList();
  }

  @Test
  void conservativeBackfillKeepsEveryReservationWhenJobsRunTheirLimit() {
    List<SimJob> jobs = exact(WorkloadGenerator.generate(400, 8 * 8, 0.9, 7));
    Simulator.Result r = Simulator.run(jobs, 8, 8, SimulateCommand.config(true, 100_000, 43200));
    assertThat(r.jobs()).isEqualTo(400);
    assertThat(r.promisesKept()).isPositive();
    assertThat(r.promisesBroken()).isZero();
  }

  @Test
  void backfillBeatsStrictOrderAndEasyIsBetweenOrBetter() {
    List<SimJob> jobs = WorkloadGenerator.generate(600, 16 * 8, 0.8, 3);
    Simulator.Result builtin = Simulator.run(jobs, 16, 8, SimulateCommand.config(false, 500, 1440));
    Simulator.Result easy = Simulator.run(jobs, 16, 8, SimulateCommand.config(true, 1, 1440));
    Simulator.Result conservative = Simulator.run(jobs, 16, 8, SimulateCommand.config(true, 100_000, 1440));
    assertThat(builtin.jobs()).isEqualTo(600);
    assertThat(easy.meanWaitS()).isLessThan(builtin.meanWaitS());
    assertThat(conservative.meanWaitS()).isLessThan(builtin.meanWaitS());
    assertThat(easy.utilization()).isGreaterThanOrEqualTo(builtin.utilization());
  }

  @Test
  void readsTheStandardWorkloadFormat() throws Exception {
    String swf = """
        ; Version: 2.2
        ; MaxProcs: 16
        1 0 5 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1
        2 10 0 -1 -1 -1 -1 2 60 -1 0 4 1 -1 1 -1 -1 -1
        3 20 0 50 2 -1 -1 -1 -1 -1 1 5 1 -1 1 -1 -1 -1
        """;
    List<SimJob> jobs = SwfReader.parse(new BufferedReader(new StringReader(swf)), "test.swf");
    assertThat(jobs).containsExactly(new SimJob(1, 0, 4, 100, 200, 3), new SimJob(3, 20, 2, 50, 50, 5));
    Simulator.Result r = Simulator.run(jobs, 2, 4, SimulateCommand.config(true, 500, 1440));
    assertThat(r.jobs()).isEqualTo(2);
    assertThat(r.meanWaitS()).isZero(); // both fit at once on 8 processors
  }
}
