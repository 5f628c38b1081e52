package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LicensesTest {
  @Test
  void countsDefaultToOneAndRepeatedNamesAddUp() {
    assertThat(Licenses.parse("foo:4,bar")).containsExactly(java.util.Map.entry("foo", 4), java.util.Map.entry("bar", 1));
    assertThat(Licenses.parse("lic@server:1,lic@server:2")).containsExactly(java.util.Map.entry("lic@server", 3));
    assertThat(Licenses.parse("foo:0")).containsEntry("foo", 0);
    assertThat(Licenses.parse("")).isEmpty();
  }

  @Test
  void malformedElementsAreRefused() {
    for (String bad : List.of("foo*2", "foo:x", "foo:", ":2", "foo,,bar", "foo:-1", "a b:1")) {
      assertThatThrownBy(() -> Licenses.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
