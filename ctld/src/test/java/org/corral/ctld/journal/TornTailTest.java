package org.corral.ctld.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.corral.ctld.journal.JournalFixtures.copyDir;
import static org.corral.ctld.journal.JournalFixtures.inTempDir;
import static org.corral.ctld.journal.JournalFixtures.indexes;
import static org.corral.ctld.journal.JournalFixtures.payload;
import static org.corral.ctld.journal.JournalFixtures.recordEnds;
import static org.corral.ctld.journal.JournalFixtures.segmentFiles;
import static org.corral.ctld.journal.JournalFixtures.truncate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash can cut the last segment anywhere; recovery keeps exactly the whole records before the
 * cut.
 */
class TornTailTest {
  @TempDir Path tmp;

  @Test
  void cuttingTheLastSegmentAtEveryOffsetKeepsExactlyTheWholeRecords() throws Exception {
    List<Integer> sizes = List.of(0, 1, 7, 20);
    Path template = tmp.resolve("template");
    writeBatches(template, sizes, List.of(2, 1, 1));
    Path segment = segmentFiles(template).get(0);
    long size = Files.size(segment);
    long[] ends = recordEnds(sizes);
    assertThat(ends[ends.length - 1]).isEqualTo(size);
    for (long cut = 0; cut <= size; cut++) {
      Path dir = tmp.resolve("cut-" + cut);
      copyDir(template, dir);
      truncate(dir.resolve(segment.getFileName()), cut);
      checkRecoveryAfterCut(dir, sizes, ends, cut);
    }
  }

  @Property(tries = 200)
  void recoveryAfterARandomCutKeepsEverySyncedRecordBeforeIt(
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 2000) Integer> sizes,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 8) Integer> batches,
      @ForAll @IntRange(min = 0, max = 1_000_000) int cutSeed)
      throws Exception {
    inTempDir(
        dir -> {
          writeBatches(dir, sizes, batches);
          Path segment = segmentFiles(dir).get(0);
          long size = Files.size(segment);
          long cut = cutSeed % (size + 1);
          truncate(segment, cut);
          checkRecoveryAfterCut(dir, sizes, recordEnds(sizes), cut);
        });
  }

  /**
   * Appends records of the given sizes, syncing after each batch (the last batch takes the rest).
   */
  private static void writeBatches(Path dir, List<Integer> sizes, List<Integer> batches)
      throws Exception {
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      int next = 0;
      for (int b = 0; next < sizes.size(); b++) {
        int count = b < batches.size() ? batches.get(b) : sizes.size() - next;
        for (int i = 0; i < count && next < sizes.size(); i++, next++) {
          journal.append(payload(next + 1, sizes.get(next)));
        }
        journal.sync();
      }
    }
  }

  private static void checkRecoveryAfterCut(Path dir, List<Integer> sizes, long[] ends, long cut)
      throws Exception {
    int whole = 0;
    while (whole < ends.length && ends[whole] <= cut) {
      whole++;
    }
    boolean atBoundary =
        cut == ends[ends.length - 1]
            || (whole > 0 && ends[whole - 1] == cut)
            || cut == SegmentHeader.BYTES;
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      Recovery recovery = journal.recovery();
      assertThat(indexes(recovery))
          .as("cut at %d", cut)
          .containsExactlyElementsOf(LongStream.rangeClosed(1, whole).boxed().toList());
      for (JournalEntry e : recovery.entries()) {
        assertThat(e.data()).isEqualTo(payload(e.index(), sizes.get((int) e.index() - 1)));
      }
      if (atBoundary) {
        assertThat(recovery.notes()).as("cut at %d", cut).isEmpty();
      } else {
        assertThat(recovery.notes())
            .as("cut at %d", cut)
            .singleElement()
            .asString()
            .startsWith("journal: cut torn tail at ")
            .contains(
                ":"
                    + (whole > 0
                        ? ends[whole - 1]
                        : (cut < SegmentHeader.BYTES ? 0 : SegmentHeader.BYTES))
                    + " (");
      }
      assertThat(journal.lastIndex()).isEqualTo(whole);
      assertThat(journal.append(payload(whole + 1, 3))).isEqualTo(whole + 1);
      journal.sync();
    }
    try (Journal journal = Journal.open(dir, RecoveryMode.STRICT)) {
      List<Long> expected = new ArrayList<>(LongStream.rangeClosed(1, whole + 1).boxed().toList());
      assertThat(indexes(journal.recovery()))
          .as("after appending past cut %d", cut)
          .isEqualTo(expected);
      assertThat(journal.recovery().notes()).isEmpty();
    }
  }
}
