package org.corral.dbd.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Job records in every supported database: idempotent, ordered, selected with bound values. */
class JobStoreTest {
  static Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  private static AcctEvent event(long id, int job, JobState state, String name) {
    return AcctEvent.newBuilder().setEventId(id).setJob(AcctJob.newBuilder().setJobId(job).setSubmitTime(1000 + job)
        .setUserId(1000).setUserName("alice").setAccount("physics").setPartition("debug").setName(name)
        .setState(state).setNumCpus(2)).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void eventsAreStoredOnceAndOlderOnesNeverUndoNewer(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore store = new JobStore(db);
      assertThat(store.store("c1", List.of(event(1, 7, JobState.PENDING, "a"), event(2, 7, JobState.RUNNING, "a"))))
          .isEqualTo(2);
      // resent after a lost acknowledgement, then an older state arriving late: no change
      store.store("c1", List.of(event(1, 7, JobState.PENDING, "a"), event(2, 7, JobState.RUNNING, "a")));
      store.store("c1", List.of(event(1, 7, JobState.PENDING, "a")));
      store.store("c1", List.of(event(3, 7, JobState.COMPLETED, "a")));
      List<AcctJob> all = store.find(new JobSelection().in("cluster", List.of("c1")));
      assertThat(all).hasSize(1);
      assertThat(all.get(0).getState()).isEqualTo(JobState.COMPLETED);
      assertThat(all.get(0).getCluster()).isEqualTo("c1");
      assertThat(store.storedThrough("c1")).isEqualTo(3);
      // another cluster's job 7 is another job
      store.store("c2", List.of(event(1, 7, JobState.PENDING, "b")));
      assertThat(store.find(new JobSelection())).hasSize(2);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void hostileTextIsStoredVerbatimAndMatchedOnlyAsAValue(Storage storage) throws Exception {
    String evil = "x'; DROP TABLE corral_job; --";
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      JobStore store = new JobStore(db);
      store.store("c1", List.of(event(1, 1, JobState.PENDING, evil), event(2, 2, JobState.PENDING, "plain")));
      List<AcctJob> found = store.find(new JobSelection().in("job_name", List.of(evil)));
      assertThat(found).extracting(AcctJob::getName).containsExactly(evil);
      assertThat(store.find(new JobSelection().in("job_name", List.of("' OR '1'='1")))).isEmpty();
      assertThat(store.find(new JobSelection())).hasSize(2);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void reopeningKeepsRecordsAndMigratesNothingTwice(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage)) {
      try (Database db = fresh.open()) {
        new JobStore(db).store("c1", List.of(event(1, 1, JobState.COMPLETED, "a")));
      }
      try (Database db = fresh.open()) {
        assertThat(new JobStore(db).find(new JobSelection())).hasSize(1);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void aJobsWckeyIsStoredWithTheIdSlurmdbdGaveItsUsersKey(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      try (java.sql.Connection c = db.connection();
          java.sql.PreparedStatement st = c.prepareStatement(
              "INSERT INTO acct_wckey (id, cluster, name, user_name, record) VALUES (?, ?, ?, ?, ?)")) {
        for (Object[] row : new Object[][] {{7L, "c1", "proj1", "alice"}, {8L, "c1", "proj1", "bob"},
            {9L, "c2", "proj1", "alice"}}) {
          st.setLong(1, (Long) row[0]);
          st.setString(2, (String) row[1]);
          st.setString(3, (String) row[2]);
          st.setString(4, (String) row[3]);
          st.setBytes(5, new byte[0]);
          st.executeUpdate();
        }
      }
      JobStore store = new JobStore(db);
      AcctEvent named = event(1, 1, JobState.PENDING, "a");
      AcctEvent byDefault = event(2, 2, JobState.PENDING, "b");
      AcctEvent unknown = event(3, 3, JobState.PENDING, "c");
      store.store("c1", List.of(
          named.toBuilder().setJob(named.getJob().toBuilder().setWckey("proj1")).build(),
          byDefault.toBuilder().setJob(byDefault.getJob().toBuilder().setWckey("*proj1")).build(),
          unknown.toBuilder().setJob(unknown.getJob().toBuilder().setWckey("nope")).build(),
          event(4, 4, JobState.PENDING, "d")));
      assertThat(store.find(new JobSelection())).extracting(j -> j.getWckey() + "#" + j.getWckeyId())
          .containsExactly("proj1#7", "*proj1#7", "nope#0", "#0");
    }
  }
}
