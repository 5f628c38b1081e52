package org.corral.cli.golden;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The command lines third-party tools run (golden/tools/record.sh: Nextflow, Snakemake 7,
 * submitit, Open OnDemand, the Prometheus Slurm exporters), recorded on the reference Slurm
 * 22.05 in a queue of completed, failed, cancelled, running, array, held and pending jobs with a
 * drained node, replayed through Corral's commands as {@link LiveGoldenTest} replays its own
 * recording: output, errors and exit status must be the reference's, byte for byte, masked alike.
 * Its jobs are root's, whose uid the live recording's users file gives too.
 */
class ThirdPartyCommandsTest {
  @TestFactory
  Stream<DynamicTest> matchesTheReference() throws Exception {
    return LiveGoldenTest.cases(LiveGoldenTest.root("tools"), 40);
  }
}
