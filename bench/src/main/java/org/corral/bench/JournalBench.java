package org.corral.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.corral.ctld.journal.Journal;
import org.corral.ctld.journal.JournalCorruptException;
import org.corral.ctld.journal.RecoveryMode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Group commit throughput of the controller journal: one operation appends {@code batch} records of
 * {@code recordBytes} and syncs them (one write, one fdatasync). Records per second durable = ops/s
 * x batch. The journal lives in {@code -Djournal.bench.dir} (default: the temp directory), since
 * the disk decides the result. Snapshots every {@value #SNAPSHOT_EVERY_BYTES} bytes keep the
 * directory from growing; they cost what they cost in production too.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 4)
public class JournalBench {
  private static final long SNAPSHOT_EVERY_BYTES = 256L * 1024 * 1024;

  @Param({"1", "16", "128"})
  int batch;

  @Param({"512"})
  int recordBytes;

  private Path dir;
  private Journal journal;
  private byte[][] records;
  private int next;

  @Setup(Level.Trial)
  public void open() throws IOException, JournalCorruptException {
    Path parent =
        Path.of(System.getProperty("journal.bench.dir", System.getProperty("java.io.tmpdir")));
    dir = Files.createTempDirectory(parent, "journal-bench");
    journal = Journal.open(dir, RecoveryMode.STRICT);
    Random random = new Random(42);
    records = new byte[1024][];
    for (int i = 0; i < records.length; i++) {
      records[i] = new byte[recordBytes];
      random.nextBytes(records[i]);
    }
  }

  @Benchmark
  public long appendBatchAndSync() throws IOException {
    long last = 0;
    for (int i = 0; i < batch; i++) {
      last = journal.append(records[next++ & (records.length - 1)]);
    }
    journal.sync();
    if (journal.bytesSinceSnapshot() > SNAPSHOT_EVERY_BYTES) {
      journal.writeSnapshot(last, records[0]);
    }
    return last;
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    journal.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
