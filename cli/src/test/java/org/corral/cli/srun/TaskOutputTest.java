package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.corral.cli.srun.TaskOutput.Stream;
import org.junit.jupiter.api.Test;

class TaskOutputTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private TaskOutput output(int tasks, boolean label, boolean unbuffered) {
    return new TaskOutput(out, err, tasks, label, unbuffered, TaskSelection.ALL, TaskSelection.ALL);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void labelsArePaddedToTheWidthOfTheLargestTaskId() {
    TaskOutput o = output(12, true, false);
    o.data(Stream.OUT, 3, b("hi\n"));
    o.data(Stream.OUT, 11, b("yo\n"));
    assertThat(out()).isEqualTo(" 3: hi\n11: yo\n");
    TaskOutput ten = output(10, true, false);
    out.reset();
    ten.data(Stream.OUT, 9, b("x\n"));
    assertThat(out()).isEqualTo("9: x\n");
  }

  @Test
  void linesOfDifferentTasksNeverMix() {
    TaskOutput o = output(2, true, false);
    o.data(Stream.OUT, 1, b("abc"));
    o.data(Stream.OUT, 0, b("xyz\n"));
    o.data(Stream.OUT, 1, b("def\nghi"));
    assertThat(out()).isEqualTo("0: xyz\n1: abcdef\n");
    o.taskEnded(1);
    assertThat(out()).isEqualTo("0: xyz\n1: abcdef\n1: ghi\n");
  }

  @Test
  void withoutLabelsALastPartialLineKeepsItsMissingNewline() {
    TaskOutput o = output(2, false, false);
    o.data(Stream.OUT, 0, b("abc"));
    o.data(Stream.OUT, 0, b("def\nghi"));
    o.finish();
    assertThat(out()).isEqualTo("abcdef\nghi");
  }

  @Test
  void unbufferedWritesPiecesAsTheyComeLabellingEach() {
    TaskOutput o = output(1, true, true);
    o.data(Stream.OUT, 0, b("abc"));
    assertThat(out()).isEqualTo("0: abc\n");
    o.data(Stream.OUT, 0, b("def\nghi"));
    assertThat(out()).isEqualTo("0: abc\n0: def\n0: ghi\n");
    out.reset();
    TaskOutput plain = output(1, false, true);
    plain.data(Stream.OUT, 0, b("abc"));
    assertThat(out()).isEqualTo("abc");
  }

  @Test
  void stderrGoesToItsOwnStream() {
    TaskOutput o = output(1, true, false);
    o.data(Stream.ERR, 0, b("e1\ne2"));
    o.finish();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("0: e1\n0: e2\n");
    assertThat(out()).isEmpty();
  }

  @Test
  void aSelectionShowsOnlyItsTask() {
    TaskOutput o = new TaskOutput(out, err, 3, true, false, TaskSelection.of("1"), TaskSelection.NONE);
    o.data(Stream.OUT, 0, b("zero\n"));
    o.data(Stream.OUT, 1, b("one\n"));
    o.data(Stream.ERR, 1, b("err\n"));
    assertThat(out()).isEqualTo("1: one\n");
    assertThat(err.size()).isZero();
  }

  @Test
  void aVeryLongLineIsWrittenBeforeItEnds() {
    TaskOutput o = output(1, false, false);
    o.data(Stream.OUT, 0, new byte[TaskOutput.MAX_PENDING_LINE]);
    assertThat(out.size()).isEqualTo(TaskOutput.MAX_PENDING_LINE);
  }

  @Test
  void modes() {
    assertThat(TaskSelection.of(null)).isEqualTo(TaskSelection.ALL);
    assertThat(TaskSelection.of("none")).isEqualTo(TaskSelection.NONE);
    assertThat(TaskSelection.of("2").task()).isEqualTo(2);
    assertThat(TaskSelection.isFile("out-%t.txt")).isTrue();
    assertThat(TaskSelection.isFile("all")).isFalse();
    assertThat(TaskSelection.isFile("3")).isFalse();
  }
}
