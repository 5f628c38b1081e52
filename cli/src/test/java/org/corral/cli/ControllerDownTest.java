package org.corral.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.scancel.ScancelCommand;
import org.corral.cli.scontrol.ScontrolCommand;
import org.corral.cli.sinfo.SinfoCommand;
import org.corral.cli.squeue.SqueueCommand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command when the controller cannot be reached: stderr and exit code as Slurm 22.05.8
 * printed them (recorded on the reference cluster with SlurmctldPort pointing nowhere).
 */
class ControllerDownTest {
  private static final String DOWN = "Unable to contact slurm controller (connect failure)";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      squeue   |                         | 1 | slurm_load_jobs error: %s
      sinfo    |                         | 1 | slurm_load_partitions: %s
      scontrol | show job                | 1 | slurm_load_jobs error: %s
      scontrol | show node               | 1 | slurm_load_node error: %s
      scontrol | show partition          | 1 | slurm_load_partitions error: %s
      scancel  | 5                       | 8 | scancel: error: Kill job error on job id 5: %s
      scontrol | hold 5                  | 1 | Unexpected message received for job 5\\nslurm_suspend error: Unexpected message received
      """)
  void reportsAsSlurmDoes(String program, String args, int rc, String stderr) {
    CliCommand command = switch (program) {
      case "squeue" -> new SqueueCommand();
      case "sinfo" -> new SinfoCommand();
      case "scancel" -> new ScancelCommand();
      default -> new ScontrolCommand();
    };
    List<String> argv = args == null ? List.of() : List.of(args.split(" "));
    CommandRun r = CommandRun.of(command, program, Map.of("USER", "root", "SLURM_CONF", "/nonexistent"),
        Clock.systemUTC(), CommandRun.recording(new ArrayList<>(),
            new IOException("connect failure"), null), argv);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(stderr.replace("\\n", "\n").formatted(DOWN) + "\n");
    assertThat(r.exitCode()).isEqualTo(rc);
  }
}
