package org.corral.ctld.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.corral.ctld.journal.JournalFixtures.filesEndingWith;
import static org.corral.ctld.journal.JournalFixtures.flipByte;
import static org.corral.ctld.journal.JournalFixtures.inTempDir;
import static org.corral.ctld.journal.JournalFixtures.indexes;
import static org.corral.ctld.journal.JournalFixtures.payload;
import static org.corral.ctld.journal.JournalFixtures.segmentFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest {
  private static final JournalOptions SMALL_SEGMENTS = new JournalOptions(1000);

  @TempDir Path dir;

  @Property(tries = 100)
  void recoveryGivesTheSnapshotAndExactlyTheRecordsAfterIt(
      @ForAll @IntRange(min = 0, max = 60) int before,
      @ForAll @IntRange(min = 0, max = 60) int lag,
      @ForAll @IntRange(min = 0, max = 60) int after)
      throws Exception {
    inTempDir(
        dir -> {
          long snapshotAt = Math.max(0, before - lag);
          try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
            appendRange(journal, 1, before);
            journal.writeSnapshot(snapshotAt, state(snapshotAt));
            appendRange(journal, before + 1, before + after);
          }
          try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
            Recovery recovery = journal.recovery();
            assertThat(recovery.snapshot())
                .hasValueSatisfying(s -> assertThat(s).isEqualTo(state(snapshotAt)));
            assertThat(recovery.snapshotIndex()).isEqualTo(snapshotAt);
            assertThat(indexes(recovery))
                .containsExactlyElementsOf(range(snapshotAt + 1, before + after));
            for (JournalEntry e : recovery.entries()) {
              assertThat(e.data()).isEqualTo(payload(e.index(), 100));
            }
            assertThat(recovery.notes()).isEmpty();
            assertThat(journal.lastIndex()).isEqualTo(before + after);
            assertThat(journal.append(payload(1, 1))).isEqualTo(before + after + 1L);
          }
        });
  }

  @Test
  void snapshotsPruneSegmentsCoveredByTheOlderOfTheTwoKept() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
      appendRange(journal, 1, 50);
      journal.writeSnapshot(50, state(50));
      // With one snapshot the whole journal stays: it is the fallback if that snapshot is damaged.
      assertThat(JournalFiles.segments(dir).getFirst().index()).isEqualTo(1);
      appendRange(journal, 51, 100);
      journal.writeSnapshot(100, state(100));
      assertThat(JournalFiles.segments(dir).getFirst().index()).isEqualTo(51);
      appendRange(journal, 101, 150);
      journal.writeSnapshot(140, state(140));
      appendRange(journal, 151, 155);
    }
    assertThat(JournalFiles.snapshots(dir).stream().map(JournalFiles.Numbered::index))
        .containsExactly(100L, 140L);
    List<JournalFiles.Numbered> segments = JournalFiles.segments(dir);
    assertThat(segments.getFirst().index()).isEqualTo(101);
    assertThat(segments.getLast().index()).isEqualTo(151);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
      assertThat(journal.recovery().snapshotIndex()).isEqualTo(140);
      assertThat(indexes(journal.recovery())).containsExactlyElementsOf(range(141, 155));
    }
  }

  @Test
  void aDamagedNewestSnapshotFallsBackToThePreviousOneAndTheJournal() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
      appendRange(journal, 1, 30);
      journal.writeSnapshot(30, state(30));
      appendRange(journal, 31, 60);
      journal.writeSnapshot(60, state(60));
      appendRange(journal, 61, 70);
    }
    Path newest = JournalFiles.snapshot(dir, 60);
    flipByte(newest, Files.size(newest) / 2);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
      Recovery recovery = journal.recovery();
      assertThat(recovery.snapshotIndex()).isEqualTo(30);
      assertThat(recovery.snapshot()).hasValueSatisfying(s -> assertThat(s).isEqualTo(state(30)));
      assertThat(indexes(recovery)).containsExactlyElementsOf(range(31, 70));
      assertThat(recovery.notes())
          .singleElement()
          .asString()
          .contains(newest.toString())
          .contains("snapshot checksum mismatch")
          .contains("recovering from snapshot");
      assertThat(journal.lastIndex()).isEqualTo(70);
    }
    assertThat(filesEndingWith(dir, ".snap.damaged")).hasSize(1);
  }

  @Test
  void aDamagedOnlySnapshotFallsBackToTheWholeJournal() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      appendRange(journal, 1, 10);
      journal.writeSnapshot(10, state(10));
      appendRange(journal, 11, 12);
    }
    flipByte(JournalFiles.snapshot(dir, 10), 0);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(journal.recovery().snapshot()).isEmpty();
      assertThat(indexes(journal.recovery())).containsExactlyElementsOf(range(1, 12));
      assertThat(journal.recovery().notes()).singleElement().asString().contains("bad magic");
    }
  }

  @Test
  void aDamagedSnapshotWithoutTheJournalToReplaceItStopsStrict() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      appendRange(journal, 1, 10);
      journal.writeSnapshot(10, state(10));
    }
    for (Path segment : segmentFiles(dir)) {
      Files.delete(segment);
    }
    Path snapshot = JournalFiles.snapshot(dir, 10);
    flipByte(snapshot, Files.size(snapshot) - 1);
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e -> {
              assertThat(e.file()).isEqualTo(snapshot);
              assertThat(e.problem())
                  .contains("snapshot checksum mismatch")
                  .contains("reaches only index 0");
              assertThat(e.getMessage()).contains("slurmctld -i");
            });
    try (Journal journal = Journal.open(dir, RecoveryMode.IGNORE_DAMAGE)) {
      assertThat(journal.recovery().snapshot()).isEmpty();
      assertThat(journal.recovery().entries()).isEmpty();
      assertThat(journal.append(payload(1, 1))).isEqualTo(1);
    }
  }

  @Test
  void bothKeptSnapshotsDamagedStopsStrictAtTheJournalGap() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS)) {
      for (long s = 10; s <= 30; s += 10) {
        appendRange(journal, s - 9, s);
        journal.writeSnapshot(s, state(s));
      }
    }
    flipByte(JournalFiles.snapshot(dir, 20), 30);
    flipByte(JournalFiles.snapshot(dir, 30), 30);
    assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT, SMALL_SEGMENTS))
        .isInstanceOfSatisfying(
            JournalCorruptException.class,
            e ->
                assertThat(e.problem())
                    .contains("the journal starts at index 21 but recovery needs index 1")
                    .contains("fell back to no snapshot"));
  }

  @Test
  void anUnfinishedSnapshotIsRemovedAndIgnored() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      appendRange(journal, 1, 5);
    }
    Path temp = dir.resolve(JournalFiles.snapshot(dir, 5).getFileName() + JournalFiles.TEMP_SUFFIX);
    Files.write(temp, new byte[] {1, 2, 3});
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(journal.recovery().snapshot()).isEmpty();
      assertThat(indexes(journal.recovery())).containsExactlyElementsOf(range(1, 5));
      assertThat(journal.recovery().notes())
          .containsExactly("journal: removed unfinished snapshot " + temp);
    }
    assertThat(temp).doesNotExist();
  }

  @Test
  void snapshotIndexMustLieBetweenTheNewestSnapshotAndTheLastRecord() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      appendRange(journal, 1, 5);
      assertThatThrownBy(() -> journal.writeSnapshot(6, state(6)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("between");
      journal.writeSnapshot(4, state(4));
      assertThatThrownBy(() -> journal.writeSnapshot(3, state(3)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("between");
      journal.writeSnapshot(5, state(5));
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(journal.recovery().snapshotIndex()).isEqualTo(5);
      assertThat(journal.recovery().entries()).isEmpty();
    }
  }

  /** Appends records first..last (100 bytes each) in batches of 7, syncing each. */
  private static void appendRange(Journal journal, long first, long last) throws Exception {
    for (long i = first; i <= last; i++) {
      assertThat(journal.append(payload(i, 100))).isEqualTo(i);
      if (i % 7 == 0) {
        journal.sync();
      }
    }
    journal.sync();
  }

  private static byte[] state(long index) {
    return ("state through " + index).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static List<Long> range(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }
}
