package org.corral.cli.golden;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The fidelity recording (golden/fidelity/record.sh, issue 28): the command lines R's batchtools
 * and rslurm run (squeue with every flag state, sacct -S 1970-01-01, sbatch --wait), squeue -t
 * and sacct -s over every state and flag state, sbatch --wait-all-nodes, recorded on the reference
 * Slurm 22.05 and replayed through Corral's commands as {@link LiveGoldenTest} replays its own.
 */
class FidelityCommandsTest {
  @TestFactory
  Stream<DynamicTest> matchesTheReference() throws Exception {
    return LiveGoldenTest.cases(LiveGoldenTest.root("fidelity"), 24);
  }
}
