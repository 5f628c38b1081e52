package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SlurmErrorTest {

  @Test
  void numbersAndTextsAreSlurms() {
    // Values from Slurm 22.05's slurm_strerror.
    assertThat(SlurmError.INVALID_JOB_ID.code()).isEqualTo(2017);
    assertThat(SlurmError.INVALID_JOB_ID.message()).isEqualTo("Invalid job id specified");
    assertThat(SlurmError.ACCESS_DENIED.code()).isEqualTo(2002);
    assertThat(SlurmError.JOB_PENDING.code()).isEqualTo(2024);
    assertThat(SlurmError.JOB_NOT_PENDING.code()).isEqualTo(2073);
    assertThat(SlurmError.PARTITION_DOWN.message()).isEqualTo("Partition in DOWN state");
    assertThat(SlurmError.UNEXPECTED.code()).isEqualTo(-1);
    assertThat(SlurmError.UNEXPECTED.message()).isEqualTo("Unspecified error");
    assertThat(SlurmError.CONTROLLER_DOWN.code()).isEqualTo(1800);
    assertThat(SlurmError.messageFor(2001)).isEqualTo("No partition specified or system default partition");
    assertThat(SlurmError.messageFor(424242)).isEqualTo("Unknown error 424242");
    assertThat(SlurmError.fromCode(2017)).contains(SlurmError.INVALID_JOB_ID);
    assertThat(SlurmError.fromCode(424242)).isEmpty();
  }

  @Test
  void codesAreUnique() {
    assertThat(Arrays.stream(SlurmError.values()).collect(Collectors.groupingBy(SlurmError::code, Collectors.counting())))
        .allSatisfy((code, n) -> assertThat(n).as("code %d", code).isEqualTo(1L));
  }
}
