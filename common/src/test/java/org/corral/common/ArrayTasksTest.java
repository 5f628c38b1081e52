package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArrayTasksTest {
  @Test
  void writesIdsAsSlurmShowsThem() {
    assertThat(ArrayTasks.parse("0-9%2", 1001).toString()).isEqualTo("0-9%2");
    assertThat(ArrayTasks.parse("1,3,5-7", 1001).toString()).isEqualTo("1,3,5-7");
    assertThat(ArrayTasks.parse("0-15:4", 1001).toString()).isEqualTo("0,4,8,12");
    assertThat(ArrayTasks.parse("7,1-3,2", 1001).toString()).isEqualTo("1-3,7");
    assertThat(ArrayTasks.parse("0-999999", 1_000_001).ranges()).hasSize(1); // one record
  }

  @Test
  void countsAndStepsAsTheArrayVariablesNeed() {
    ArrayTasks t = ArrayTasks.parse("0-15:4", 1001);
    assertThat(t.count()).isEqualTo(4);
    assertThat(t.first()).isZero();
    assertThat(t.last()).isEqualTo(12);
    assertThat(t.step()).isEqualTo(4);
    assertThat(ArrayTasks.parse("0-9", 1001).step()).isEqualTo(1);
  }

  @Test
  void tasksLeaveOneByOne() {
    ArrayTasks t = ArrayTasks.parse("2-9%2", 1001).without(5).without(2);
    assertThat(t.toString()).isEqualTo("3-4,6-9%2");
    assertThat(t.contains(5)).isFalse();
    assertThat(ArrayTasks.fromString(t.toString())).usingRecursiveComparison().isEqualTo(t);
    assertThat(ArrayTasks.parse("4", 1001).without(4).isEmpty()).isTrue();
  }

  @Test
  void refusesWhatSlurmRefuses() {
    for (String bad : new String[] {"0-1001", "5-2", "abc", "", "1-", "0-9%x", "0-9:0"}) {
      assertThatThrownBy(() -> ArrayTasks.parse(bad, 1001)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
