package org.corral.ctld.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobIdHighWaterTest {
  @TempDir Path dir;

  @Test
  void theMarkMovesAheadABlockAtATimeAndSurvivesReopening() throws Exception {
    JobIdHighWater w = JobIdHighWater.open(dir);
    assertThat(w.mark()).isZero();
    w.cover(2);
    assertThat(w.mark()).isEqualTo(2 + JobIdHighWater.BLOCK);
    w.cover(500); // within the block: nothing written
    assertThat(JobIdHighWater.open(dir).mark()).isEqualTo(2 + JobIdHighWater.BLOCK);
    w.cover(2 + JobIdHighWater.BLOCK + 1);
    assertThat(JobIdHighWater.open(dir).mark()).isEqualTo(3 + 2 * JobIdHighWater.BLOCK);
  }

  @Test
  void aMarkThatIsNotANumberIsAnErrorNotAFreshStart() throws Exception {
    Files.writeString(dir.resolve("job_id_high_water"), "garbage");
    assertThatThrownBy(() -> JobIdHighWater.open(dir)).hasMessageContaining("does not hold a job id");
  }

  @Test
  void forgettingStartsAgain() throws Exception {
    JobIdHighWater.open(dir).cover(10);
    JobIdHighWater.forget(dir);
    assertThat(JobIdHighWater.open(dir).mark()).isZero();
  }
}
