package org.corral.cli.srun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes the tasks' stdout and stderr as srun does. By default output is line-buffered per
 * task, so lines of different tasks never mix; a last line without a newline is written when
 * its task ends. With --label every line starts with the task id, right-aligned to the width
 * of the largest id ("%2d: " for 11 tasks), and a last partial line gets a newline. With
 * --unbuffered data is written as it comes (with --label, each piece as labelled lines).
 * Thread-safe: node connections deliver concurrently.
 */
final class TaskOutput {

  /** Which of a task's streams. */
  enum Stream { OUT, ERR }

  /** Output is written at the latest once a task's unfinished line grows this long. */
  static final int MAX_PENDING_LINE = 64 * 1024;

  private final OutputStream out;
  private final OutputStream err;
  private final boolean label;
  private final int labelWidth;
  private final boolean unbuffered;
  private final TaskSelection outSelection;
  private final TaskSelection errSelection;
  private final Map<Long, ByteArrayOutputStream> pending = new HashMap<>();

  /**
   * @param numTasks the step's task count (sets the label width)
   */
  TaskOutput(OutputStream out, OutputStream err, int numTasks, boolean label, boolean unbuffered,
      TaskSelection outSelection, TaskSelection errSelection) {
    this.out = out;
    this.err = err;
    this.label = label;
    this.labelWidth = String.valueOf(Math.max(0, numTasks - 1)).length();
    this.unbuffered = unbuffered;
    this.outSelection = outSelection;
    this.errSelection = errSelection;
  }

  synchronized void data(Stream stream, int task, byte[] data) {
    if (!(stream == Stream.OUT ? outSelection : errSelection).shows(task)) {
      return;
    }
    OutputStream sink = stream == Stream.OUT ? out : err;
    if (unbuffered) {
      writeUnbuffered(sink, task, data);
      return;
    }
    ByteArrayOutputStream line = pending.computeIfAbsent(key(stream, task), k -> new ByteArrayOutputStream());
    int start = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == '\n') {
        line.write(data, start, i + 1 - start);
        emit(sink, task, line.toByteArray(), false);
        line.reset();
        start = i + 1;
      }
    }
    line.write(data, start, data.length - start);
    if (line.size() >= MAX_PENDING_LINE) {
      emit(sink, task, line.toByteArray(), true);
      line.reset();
    }
    flush(sink);
  }

  /** The task has ended: its unfinished lines are written. */
  synchronized void taskEnded(int task) {
    for (Stream s : Stream.values()) {
      ByteArrayOutputStream line = pending.remove(key(s, task));
      if (line != null && line.size() > 0) {
        OutputStream sink = s == Stream.OUT ? out : err;
        emit(sink, task, line.toByteArray(), true);
        flush(sink);
      }
    }
  }

  /** Writes every unfinished line (srun is about to exit). */
  synchronized void finish() {
    for (Long k : pending.keySet().toArray(Long[]::new)) {
      taskEnded((int) (k >> 1));
    }
  }

  private void writeUnbuffered(OutputStream sink, int task, byte[] data) {
    if (!label) {
      write(sink, data);
    } else {
      int start = 0;
      for (int i = 0; i <= data.length; i++) {
        if (i == data.length || data[i] == '\n') {
          if (i > start || i < data.length) {
            byte[] piece = java.util.Arrays.copyOfRange(data, start, Math.min(i + 1, data.length));
            emit(sink, task, piece, true);
          }
          start = i + 1;
        }
      }
    }
    flush(sink);
  }

  /** Writes one line (or the end of the output), labelled; {@code last} may lack its newline. */
  private void emit(OutputStream sink, int task, byte[] line, boolean last) {
    if (label) {
      write(sink, prefix(task));
      write(sink, line);
      if (last && (line.length == 0 || line[line.length - 1] != '\n')) {
        write(sink, new byte[] {'\n'});
      }
    } else {
      write(sink, line);
    }
  }

  byte[] prefix(int task) {
    return String.format("%" + labelWidth + "d: ", task).getBytes(StandardCharsets.US_ASCII);
  }

  private static long key(Stream s, int task) {
    return ((long) task << 1) | s.ordinal();
  }

  private static void write(OutputStream sink, byte[] bytes) {
    try {
      sink.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void flush(OutputStream sink) {
    try {
      sink.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
