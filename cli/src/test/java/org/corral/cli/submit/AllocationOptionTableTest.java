package org.corral.cli.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.AllocationOptionTable.Program;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each command's long options, filtered from the one table, are Slurm 22.05's in Slurm's order:
 * GNU getopt's ambiguity message for a one-letter prefix lists every option with it, in table
 * order (recorded from the reference: {@code srun --t=1}).
 */
class AllocationOptionTableTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "SBATCH|b|'--batch' '--begin' '--bb' '--bbf'",
      "SRUN|b|'--bcast' '--bcast-exclude' '--begin' '--bb' '--bbf'",
      "SALLOC|b|'--begin' '--bell' '--bb' '--bbf'",
      "SBATCH|c|'--cluster-constraint' '--chdir' '--cluster' '--clusters' '--comment' '--container' '--context' "
          + "'--contiguous' '--constraint' '--core-spec' '--cores-per-socket' '--cpu-freq' '--cpus-per-gpu' '--cpus-per-task'",
      "SRUN|c|'--cluster-constraint' '--chdir' '--cluster' '--clusters' '--comment' '--compress' '--container' "
          + "'--context' '--contiguous' '--constraint' '--core-spec' '--cores-per-socket' '--cpu-bind' '--cpu_bind' "
          + "'--cpu-freq' '--cpus-per-gpu' '--cpus-per-task'",
      "SRUN|d|'--deadline' '--debugger-test' '--delay-boot' '--dependency' '--disable-status' '--distribution'",
      "SALLOC|e|'--exclude' '--exclusive' '--extra-node-info'",
      "SRUN|m|'--mail-type' '--mail-user' '--mcs-label' '--mem' '--mem-bind' '--mem-per-cpu' '--mem-per-gpu' "
          + "'--mincpus' '--mpi' '--msg-timeout' '--multi-prog'",
      "SALLOC|n|'--network' '--nice' '--no-bell' '--no-kill' '--no-shell' '--nodefile' '--nodelist' '--nodes' "
          + "'--ntasks' '--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'",
      "SRUN|n|'--network' '--nice' '--no-allocate' '--no-kill' '--nodefile' '--nodelist' '--nodes' '--ntasks' "
          + "'--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'",
      "SRUN|p|'--pack-group' '--partition' '--power' '--prefer' '--preserve-env' '--priority' '--profile' "
          + "'--prolog' '--propagate' '--pty'",
      "SBATCH|p|'--parsable' '--partition' '--power' '--prefer' '--priority' '--profile' '--propagate'",
      "SRUN|t|'--threads' '--task-epilog' '--task-prolog' '--tasks-per-node' '--test-only' '--thread-spec' "
          + "'--threads-per-core' '--time' '--time-min' '--tmp' '--tres-per-task'",
      "SALLOC|t|'--tasks-per-node' '--thread-spec' '--threads-per-core' '--time' '--time-min' '--tmp' '--tres-per-task'",
      "SBATCH|w|'--wait' '--wait-all-nodes' '--wckey' '--wrap'",
      "SRUN|w|'--wait' '--wckey' '--whole'",
  })
  void eachCommandListsSlurmsOptionsInSlurmsOrder(Program program, String prefix, String expected) {
    Getopt getopt = AllocationOptionTable.getopt("", program);
    assertThatThrownBy(() -> getopt.parse(List.of("--" + prefix + "=1")))
        .hasMessage("option '--" + prefix + "=1' is ambiguous; possibilities: " + expected);
  }

  @ParameterizedTest
  @CsvSource({"SBATCH,--wait,W,", "SRUN,--wait=5,W,5", "SRUN,--cpu_bind=none,cpu-bind,none",
      "SRUN,--pack-group=1,het-group,1", "SALLOC,--kill-command,K,"})
  void optionsSpelledTwoWaysOrTakenDifferentlyShareAKey(Program program, String arg, String key, String value)
      throws Exception {
    Getopt.Opt opt = AllocationOptionTable.getopt("", program).parse(List.of(arg)).options().get(0);
    assertThat(opt.key()).isEqualTo(key);
    assertThat(opt.value()).isEqualTo(value);
  }
}
