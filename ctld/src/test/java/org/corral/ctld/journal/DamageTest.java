package org.corral.ctld.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.corral.ctld.journal.JournalFixtures.filesEndingWith;
import static org.corral.ctld.journal.JournalFixtures.flipByte;
import static org.corral.ctld.journal.JournalFixtures.inTempDir;
import static org.corral.ctld.journal.JournalFixtures.indexes;
import static org.corral.ctld.journal.JournalFixtures.payload;
import static org.corral.ctld.journal.JournalFixtures.recordEnds;
import static org.corral.ctld.journal.JournalFixtures.segmentFiles;
import static org.corral.ctld.journal.JournalFixtures.truncate;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damage that a crash cannot explain: STRICT refuses, IGNORE_DAMAGE keeps the intact prefix. */
class DamageTest {
  @TempDir Path dir;

  @Property(tries = 200)
  void aFlippedByteBeforeTheLastRecordStopsStrictAndIsCutByIgnoreDamage(
      @ForAll @Size(min = 2, max = 30) List<@IntRange(min = 0, max = 300) Integer> sizes,
      @ForAll @IntRange(min = 0, max = 1_000_000) int recordSeed,
      @ForAll @IntRange(min = 0, max = 1_000_000) int byteSeed)
      throws Exception {
    inTempDir(
        dir -> {
          write(dir, sizes, 4);
          long[] ends = recordEnds(sizes);
          int damaged = recordSeed % (sizes.size() - 1); // 0-based, never the last record
          long start = damaged == 0 ? SegmentHeader.BYTES : ends[damaged - 1];
          long offset = start + byteSeed % (ends[damaged] - start);
          Path segment = segmentFiles(dir).get(0);
          flipByte(segment, offset);

          JournalCorruptException e =
              catchThrowableOfType(
                  JournalCorruptException.class, () -> Journal.open(dir, RecoveryMode.STRICT));
          assertThat(e).as("flipped byte %d in record %d", offset, damaged + 1).isNotNull();
          assertThat(e.file()).isEqualTo(segment);
          assertThat(e.offset()).isEqualTo(start);
          assertThat(e.problem()).contains("intact records follow");
          assertThat(e.getMessage())
              .contains(segment.toString())
              .contains("offset " + start)
              .contains("slurmctld -i");
          assertThat(Files.size(segment))
              .as("STRICT changes nothing")
              .isEqualTo(ends[ends.length - 1]);

          try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE)) {
            assertThat(indexes(journal.recovery())).containsExactlyElementsOf(range(damaged));
            assertThat(journal.recovery().notes())
                .anyMatch(n -> n.contains("ignoring damage at " + segment + ":" + start));
            assertThat(journal.append(payload(damaged + 1, 9))).isEqualTo(damaged + 1);
            journal.sync();
          }
          assertThat(filesEndingWith(dir, ".damaged")).hasSize(1);
          try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
            assertThat(indexes(journal.recovery())).containsExactlyElementsOf(range(damaged + 1));
            assertThat(journal.recovery().entries().getLast().data())
                .isEqualTo(payload(damaged + 1, 9));
            assertThat(journal.recovery().notes()).isEmpty();
          }
        });
  }

  @Test
  void aFlippedByteInTheLastRecordIsATornTail() throws Exception {
    List<Integer> sizes = List.of(10, 10, 10);
    write(dir, sizes, 3);
    flipByte(segmentFiles(dir).get(0), recordEnds(sizes)[2] - 1);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L);
      assertThat(journal.recovery().notes()).singleElement().asString().contains("cut torn tail");
    }
  }

  @Test
  void aBadSegmentHeaderStopsStrict() throws Exception {
    write(dir, List.of(10, 10), 2);
    Path segment = segmentFiles(dir).get(0);
    flipByte(segment, 1);
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e -> {
              assertThat(e.file()).isEqualTo(segment);
              assertThat(e.offset()).isZero();
              assertThat(e.problem()).contains("bad magic");
            });
    try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE)) {
      assertThat(journal.recovery().entries()).isEmpty();
      assertThat(journal.lastIndex()).isZero();
      assertThat(journal.append(payload(1, 1))).isEqualTo(1);
    }
    assertThat(filesEndingWith(dir, ".log.damaged")).hasSize(1);
  }

  @Test
  void aMissingIndexStopsStrict() throws Exception {
    Path segment = JournalFiles.segment(dir, 1);
    writeRawSegment(segment, 1, 1, 2, 4, 5);
    long third = SegmentHeader.BYTES + 2L * RecordFrame.frameBytes(3);
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e -> {
              assertThat(e.offset()).isEqualTo(third);
              assertThat(e.problem()).isEqualTo("expected record index 3 but found 4");
            });
    try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L);
      assertThat(journal.append(payload(3, 3))).isEqualTo(3);
    }
  }

  @Test
  void damageInASegmentThatIsNotTheLastStopsStrictAndSetsLaterSegmentsAside() throws Exception {
    JournalOptions small = new JournalOptions(600);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, small)) {
      for (long i = 1; i <= 12; i++) {
        journal.append(payload(i, 100));
        if (i % 4 == 0) {
          journal.sync();
        }
      }
    }
    List<Path> segments = segmentFiles(dir);
    assertThat(segments).hasSize(3);
    Path first = segments.get(0);
    long cutAt = Files.size(first) - 10;
    truncate(first, cutAt);
    long lastWhole = SegmentHeader.BYTES + 3L * RecordFrame.frameBytes(100);
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT, small))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e -> {
              assertThat(e.file()).isEqualTo(first);
              assertThat(e.offset()).isEqualTo(lastWhole);
              assertThat(e.problem())
                  .contains("incomplete record")
                  .contains("later segments follow");
            });
    try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE, small)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L, 3L);
      assertThat(journal.append(payload(4, 1))).isEqualTo(4);
    }
    assertThat(filesEndingWith(dir, ".damaged")).hasSize(3);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, small)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L, 3L, 4L);
    }
  }

  @Test
  void aMissingSegmentStopsStrict() throws Exception {
    JournalOptions small = new JournalOptions(600);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, small)) {
      for (long i = 1; i <= 12; i++) {
        journal.append(payload(i, 100));
        if (i % 4 == 0) {
          journal.sync();
        }
      }
    }
    Files.delete(segmentFiles(dir).get(1));
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT, small))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e ->
                assertThat(e.problem())
                    .isEqualTo(
                        "segment starts at index 9 but the previous segment ends at index 4"));
    try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE, small)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L, 3L, 4L);
      assertThat(journal.append(payload(5, 1))).isEqualTo(5);
    }
  }

  @Test
  void garbageAfterTheLastRecordIsATornTail() throws Exception {
    write(dir, List.of(50, 50), 2);
    Path segment = segmentFiles(dir).get(0);
    long end = Files.size(segment);
    Files.write(segment, new byte[4096], java.nio.file.StandardOpenOption.APPEND);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L);
      assertThat(journal.recovery().notes())
          .containsExactly("journal: cut torn tail at " + segment + ":" + end + " (4096 bytes)");
    }
  }

  private static List<Long> range(long lastInclusive) {
    return LongStream.rangeClosed(1, lastInclusive).boxed().toList();
  }

  private static void write(Path dir, List<Integer> sizes, int batch) throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      for (int i = 0; i < sizes.size(); i++) {
        journal.append(payload(i + 1, sizes.get(i)));
        if ((i + 1) % batch == 0) {
          journal.sync();
        }
      }
    }
  }

  /** A segment holding 3-byte records with exactly these indexes, gaps included. */
  private static void writeRawSegment(Path file, long base, long... indexes) throws Exception {
    ByteBuffer out =
        ByteBuffer.allocate(SegmentHeader.BYTES + indexes.length * RecordFrame.frameBytes(3));
    out.put(SegmentHeader.encode(base));
    for (long index : indexes) {
      RecordFrame.encode(
          out, index, payload(index, 3), new byte[RecordFrame.HEADER_BYTES], new CRC32C());
    }
    Files.write(file, out.array());
  }
}
