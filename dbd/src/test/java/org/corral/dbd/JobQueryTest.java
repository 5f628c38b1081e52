package org.corral.dbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.api.Test;

/** sacct's selections over stored jobs: whose, which, when, and page by page. */
class JobQueryTest {
  private static final long NOW = 100_000;

  private static AcctJob job(int id, int uid, JobState state, long submit, long start, long end) {
    return AcctJob.newBuilder().setJobId(id).setUserId(uid).setUserName("u" + uid).setState(state)
        .setSubmitTime(submit).setStartTime(start).setEndTime(end).setName("j" + id).build();
  }

  private static JobQuery store(Database db, List<AcctJob> jobs) throws Exception {
    JobStore store = new JobStore(db);
    List<AcctEvent> events = new ArrayList<>();
    long id = 1;
    for (AcctJob j : jobs) {
      events.add(AcctEvent.newBuilder().setEventId(id++).setJob(j).build());
    }
    store.store("c", events);
    return new JobQuery(store, "c");
  }

  private static List<Integer> ids(JobQueryReply r) {
    return r.getJobsList().stream().map(AcctJob::getJobId).toList();
  }

  @Test
  void usersSeeTheirOwnJobsUnlessTheyAskForAll() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      JobQuery q = store(db, List.of(job(1, 1000, JobState.COMPLETED, 10, 20, 30),
          job(2, 1001, JobState.COMPLETED, 10, 20, 30)));
      assertThat(ids(q.run(JobQueryRequest.getDefaultInstance(), 1000, false, NOW))).containsExactly(1);
      assertThat(ids(q.run(JobQueryRequest.newBuilder().setAllUsers(true).build(), 1000, false, NOW)))
          .containsExactly(1, 2);
      assertThat(ids(q.run(JobQueryRequest.getDefaultInstance(), 0, true, NOW))).containsExactly(1, 2);
      assertThat(ids(q.run(JobQueryRequest.newBuilder().addUserIds(1001).build(), 1000, false, NOW)))
          .containsExactly(2);
    }
  }

  @Test
  void windowAndStatesSelectWhatHappenedInTheWindow() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      JobQuery q = store(db, List.of(
          job(1, 0, JobState.COMPLETED, 10, 20, 30),      // over before the window
          job(2, 0, JobState.FAILED, 10, 20, 150),        // ended inside
          job(3, 0, JobState.RUNNING, 10, 120, 0),        // running through it
          job(4, 0, JobState.PENDING, 300, 0, 0)));       // submitted after it
      JobQueryRequest.Builder window = JobQueryRequest.newBuilder().setStart(100).setEnd(200);
      assertThat(ids(q.run(window.build(), 0, true, NOW))).containsExactly(2, 3);
      assertThat(ids(q.run(window.clone().addStates(JobState.FAILED).build(), 0, true, NOW))).containsExactly(2);
      assertThat(ids(q.run(window.clone().addStates(JobState.RUNNING).build(), 0, true, NOW))).containsExactly(2, 3);
    }
  }

  @Test
  void arrayIdsSelectTheWholeArrayOrOneTask() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      JobQuery q = store(db, List.of(
          job(10, 0, JobState.PENDING, 10, 0, 0).toBuilder().setArrayJobId(10).setArrayTasks("3-5").build(),
          job(11, 0, JobState.COMPLETED, 10, 20, 30).toBuilder().setArrayJobId(10).setArrayTaskId(1).build(),
          job(12, 0, JobState.COMPLETED, 10, 20, 30).toBuilder().setArrayJobId(10).setArrayTaskId(2).build(),
          job(13, 0, JobState.COMPLETED, 10, 20, 30)));
      assertThat(ids(q.run(JobQueryRequest.newBuilder().addJobIds("10").build(), 0, true, NOW)))
          .containsExactly(10, 11, 12);
      assertThat(ids(q.run(JobQueryRequest.newBuilder().addJobIds("10_2").build(), 0, true, NOW)))
          .containsExactly(12);
      assertThat(ids(q.run(JobQueryRequest.newBuilder().addJobIds("10_4.batch").build(), 0, true, NOW)))
          .containsExactly(10);
      assertThat(ids(q.run(JobQueryRequest.newBuilder().addJobIds("13").build(), 0, true, NOW)))
          .containsExactly(13);
    }
  }

  static java.util.stream.Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("storages")
  void pagesCoverEveryMatchOnceInOrder(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      List<AcctJob> jobs = new ArrayList<>();
      for (int i = 1; i <= 25; i++) { // three to a second, the third an array task
        AcctJob j = job(i, i % 2 == 0 ? 1000 : 1001, JobState.COMPLETED, 10 + i / 3, 20, 30);
        jobs.add(i % 3 == 2 ? j.toBuilder().setArrayJobId(1).setArrayTaskId(i).build() : j);
      }
      JobQuery q = store(db, jobs);
      List<Integer> seen = new ArrayList<>();
      JobQueryRequest.Builder req = JobQueryRequest.newBuilder().addUserIds(1000).setPageSize(4);
      int pages = 0;
      while (true) {
        JobQueryReply r = q.run(req.build(), 0, true, NOW);
        seen.addAll(ids(r));
        pages++;
        if (!r.getMore()) {
          break;
        }
        assertThat(r.getJobsCount()).isLessThanOrEqualTo(4);
        org.corral.protocol.JobQueryPages.after(req, r);
      }
      assertThat(seen).containsExactly(2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24);
      assertThat(pages).isGreaterThan(2);
    }
  }

  /**
   * A requeued job's runs are rows of their own (by submit time): sacct -D lists them all, as the
   * reference's "9 REQUEUED / 9 PENDING"; without -D only the latest, as Slurm shows it.
   */
  @Test
  void withoutDuplicatesOnlyAJobsLatestRunIsListed() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      JobQuery q = store(db, List.of(
          job(9, 0, JobState.REQUEUED, 10, 20, 30),
          job(9, 0, JobState.NODE_FAIL, 30, 40, 50),
          job(9, 0, JobState.PENDING, 50, 0, 0),
          job(10, 0, JobState.COMPLETED, 12, 20, 30)));
      JobQueryRequest d = JobQueryRequest.newBuilder().setDuplicates(true).build();
      assertThat(q.run(d, 0, true, NOW).getJobsList()).extracting(j -> j.getJobId() + " " + j.getState())
          .containsExactly("9 REQUEUED", "10 COMPLETED", "9 NODE_FAIL", "9 PENDING");
      assertThat(q.run(JobQueryRequest.getDefaultInstance(), 0, true, NOW).getJobsList())
          .extracting(j -> j.getJobId() + " " + j.getState()).containsExactly("10 COMPLETED", "9 PENDING");
      assertThat(q.run(JobQueryRequest.newBuilder().addJobIds("9").build(), 0, true, NOW).getJobsList())
          .extracting(AcctJob::getState).containsExactly(JobState.PENDING);
    }
  }
}
