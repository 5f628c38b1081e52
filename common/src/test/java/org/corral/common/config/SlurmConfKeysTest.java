package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SlurmConfKeysTest {
  @Test
  void everyDefaultReadsAsItsTypeAndEveryKeyHasOneNameAndSlot() {
    Set<String> names = new HashSet<>();
    Set<Integer> slots = new HashSet<>();
    for (ConfKey<?> k : SlurmConfKeys.all()) {
      assertThat(names.add(k.name().toLowerCase(java.util.Locale.ROOT))).as(k.name()).isTrue();
      assertThat(slots.add(k.index())).as(k.name()).isTrue();
      assertThat(k.index()).isLessThan(SlurmConfKeys.SLOTS);
      k.defaultValue(); // throws if the table's default is not a value of its type
      assertThat(k.unsetText()).as(k.name()).isNotNull();
      if (k.support() == ConfKey.Support.NOT_IMPLEMENTED) {
        assertThat(k.note()).as(k.name()).isNotBlank();
      }
    }
    assertThat(SlurmConfKeys.find("selecttype")).isSameAs(SlurmConfKeys.find("SelectType"));
    assertThat(SlurmConfKeys.find("BOOT_TIME")).as("shown only, not a key").isNull();
  }
}
