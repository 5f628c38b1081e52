package org.corral.ctld.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.corral.ctld.journal.JournalFixtures.indexes;
import static org.corral.ctld.journal.JournalFixtures.payload;
import static org.corral.ctld.journal.JournalFixtures.segmentFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
  @TempDir Path dir;

  @Test
  void freshDirectoryRecoversNothingAndStartsAtIndexOne() throws Exception {
    Path journalDir = dir.resolve("state/journal");
    try (Journal journal = Journal.open(journalDir, RecoveryMode.STRICT)) {
      Recovery recovery = journal.recovery();
      assertThat(recovery.snapshot()).isEmpty();
      assertThat(recovery.snapshotIndex()).isZero();
      assertThat(recovery.entries()).isEmpty();
      assertThat(recovery.notes()).isEmpty();
      assertThat(journal.lastIndex()).isZero();
      assertThat(journal.append(payload(1, 10))).isEqualTo(1);
    }
    assertThat(segmentFiles(journalDir)).hasSize(1);
  }

  @Test
  void syncedRecordsComeBackInOrderAndIndexesContinueAfterReopen() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      for (long i = 1; i <= 20; i++) {
        assertThat(journal.append(payload(i, (int) i * 13))).isEqualTo(i);
        if (i % 7 == 0) {
          journal.sync();
        }
      }
      journal.append(new byte[0]);
      journal.sync();
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      List<JournalEntry> entries = journal.recovery().entries();
      assertThat(indexes(journal.recovery()))
          .containsExactlyElementsOf(LongStream.rangeClosed(1, 21).boxed().toList());
      for (JournalEntry e : entries.subList(0, 20)) {
        assertThat(e.data()).isEqualTo(payload(e.index(), (int) e.index() * 13));
      }
      assertThat(entries.get(20).data()).isEmpty();
      assertThat(journal.lastIndex()).isEqualTo(21);
      assertThat(journal.append(payload(22, 5))).isEqualTo(22);
      journal.sync();
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(indexes(journal.recovery())).hasSize(22).endsWith(22L);
      assertThat(journal.recovery().notes()).isEmpty();
    }
  }

  @Test
  void closeSyncsPendingRecords() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      journal.append(payload(1, 100));
      journal.append(payload(2, 100));
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L, 2L);
    }
  }

  @Test
  void appendBuffersUntilSyncAndSyncWithNothingPendingWritesNothing() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      Path segment = segmentFiles(dir).get(0);
      long empty = Files.size(segment);
      journal.append(payload(1, 100));
      assertThat(Files.size(segment)).isEqualTo(empty);
      journal.sync();
      long one = Files.size(segment);
      assertThat(one).isEqualTo(empty + RecordFrame.frameBytes(100));
      journal.sync();
      assertThat(Files.size(segment)).isEqualTo(one);
    }
  }

  @Test
  void segmentsRollAtTheSizeLimitAndAreNamedInIndexOrder() throws Exception {
    JournalOptions small = new JournalOptions(1024);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, small)) {
      for (long i = 1; i <= 100; i++) {
        journal.append(payload(i, 100));
        if (i % 5 == 0) {
          journal.sync();
        }
      }
    }
    List<JournalFiles.Numbered> segments = JournalFiles.segments(dir);
    assertThat(segments).hasSize(20);
    assertThat(segments.stream().map(s -> s.index()).toList())
        .containsExactlyElementsOf(LongStream.iterate(1, i -> i + 5).limit(20).boxed().toList());
    List<String> names = segments.stream().map(s -> s.path().getFileName().toString()).toList();
    assertThat(names).isSorted();
    assertThat(names.get(1)).isEqualTo("journal-00000000000000000006.log");
    for (JournalFiles.Numbered s : segments) {
      assertThat(Files.size(s.path())).isLessThanOrEqualTo(1024);
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT, small)) {
      assertThat(indexes(journal.recovery()))
          .containsExactlyElementsOf(LongStream.rangeClosed(1, 100).boxed().toList());
      assertThat(journal.recovery().entries().get(57).data()).isEqualTo(payload(58, 100));
    }
  }

  @Test
  void aSecondJournalOnTheSameDirectoryIsRefused() throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThatThrownBy(() -> Journal.open(dir, RecoveryMode.STRICT))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("in use");
      journal.append(payload(1, 1));
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(indexes(journal.recovery())).containsExactly(1L);
    }
  }

  @Test
  void oversizedRecordsAndUseAfterCloseAreRefused() throws Exception {
    Journal journal = Journal.open(dir, RecoveryMode.STRICT);
    assertThatThrownBy(() -> journal.append(new byte[RecordFrame.MAX_PAYLOAD_BYTES + 1]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exceeds the limit");
    assertThat(journal.lastIndex()).isZero();
    journal.close();
    assertThatThrownBy(() -> journal.append(payload(1, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void bytesSinceSnapshotCountsFramedRecordsSinceTheSnapshot() throws Exception {
    int frame = RecordFrame.frameBytes(100);
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      journal.append(payload(1, 100));
      journal.append(payload(2, 100));
      assertThat(journal.bytesSinceSnapshot()).isEqualTo(2L * frame);
      journal.sync();
      assertThat(journal.bytesSinceSnapshot()).isEqualTo(2L * frame);
      journal.writeSnapshot(2, new byte[] {1});
      assertThat(journal.bytesSinceSnapshot()).isZero();
      for (long i = 3; i <= 5; i++) {
        journal.append(payload(i, 100));
      }
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      assertThat(journal.bytesSinceSnapshot()).isEqualTo(3L * frame);
    }
  }
}
