package org.corral.dbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.corral.common.SlurmError;
import org.corral.dbd.assoc.AssocService;
import org.corral.dbd.assoc.AssocStore;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobSelection;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.ArchiveDumpRequest;
import org.corral.protocol.msg.ArchiveLoadRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * sacctmgr archive dump and load as slurmdbd serves them, on every backend: a dump purges what
 * the ages given select (archived first), a load puts the records back exactly as they were and
 * never twice; only root, SlurmUser and Administrators may do either.
 */
class ArchiveServiceTest {
  private static final long DAY = 86400;
  private static final Instant NOW = Instant.ofEpochSecond(100 * DAY);
  private static final Peer ROOT = new Peer(0, 0, null, null);
  private static final Peer ADAM = new Peer(1001, 1001, null, null); // AdminLevel=Administrator
  private static final Peer PETE = new Peer(1004, 1004, null, null); // no AdminLevel

  @TempDir Path tmp;

  static Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  private static AcctJob job(String cluster, int id, long end) {
    return AcctJob.newBuilder().setCluster(cluster).setJobId(id).setSubmitTime(id * 60L).setStartTime(id * 60L + 10)
        .setEndTime(end).setState(end == 0 ? JobState.RUNNING : JobState.COMPLETED).setUserId(1000)
        .setUserName("alice").setAccount("physics").setName("j'" + id + "; DROP TABLE corral_job")
        .addSteps(AcctStep.newBuilder().setStepId(0).setName("batch")).build();
  }

  interface StoreTest {
    void run(Database db, JobStore store) throws Exception;
  }

  private static void inFreshDatabase(Storage storage, StoreTest test) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      test.run(db, new JobStore(db));
    }
  }

  private ArchiveService service(Database db, JobStore store) throws Exception {
    AssocStore assocs = new AssocStore(db);
    assocs.bootstrap("c");
    Path passwd = tmp.resolve("passwd");
    Files.writeString(passwd, "root:x:0:0::/root:/bin/sh\nadam:x:1001:1001::/:/bin/sh\npete:x:1004:1004::/:/bin/sh\n");
    Files.writeString(tmp.resolve("group"), "");
    AssocService assoc = new AssocService(assocs, 64030,
        new UserDirectory(passwd, tmp.resolve("group"), List.of(), Clock.systemUTC()));
    for (String[] u : new String[][] {{"adam", "3"}, {"pete", "1"}}) {
      assertThat(assoc.update(ROOT, AcctUpdateRequest.newBuilder().addChanges(AcctChange.newBuilder().setPutUser(
          AcctUser.newBuilder().setName(u[0]).setDefaultAccount("root").setAdminLevel(Integer.parseInt(u[1]))))
          .build()).getErrorMessage()).isEmpty();
    }
    Purger purger = new Purger(store, new Purger.Plan(Optional.empty(), false, Optional.empty(), false,
        Optional.empty(), List.of()), Clock.fixed(NOW, ZoneOffset.UTC));
    return new ArchiveService(purger, store, assoc, tmp.resolve("default-dir"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void dumpPurgesAndArchivesAndLoadPutsBackOnceAsItWas(Storage storage) throws Exception {
    inFreshDatabase(storage, (db, store) -> {
      List<AcctEvent> events = new ArrayList<>();
      long[] ends = {10 * DAY, 50 * DAY, 98 * DAY, 100 * DAY - 3600, 0};
      for (int i = 0; i < ends.length; i++) {
        events.add(AcctEvent.newBuilder().setEventId(i + 1).setJob(job("c", i + 1, ends[i])).build());
      }
      store.store("c", events);
      store.store("other", List.of(AcctEvent.newBuilder().setEventId(1).setJob(job("other", 7, DAY)).build()));
      List<AcctJob> before = store.find(new JobSelection());
      ArchiveService archive = service(db, store);
      Path dir = Files.createDirectories(tmp.resolve("arch"));
      ArchiveDumpRequest dump = ArchiveDumpRequest.newBuilder().setJobs(true).setPurgeJobAfter("30days")
          .setDirectory(dir.toString()).addClusters("c").build();

      // a user without AdminLevel may not; nothing changes
      Response denied = archive.dump(PETE, dump);
      assertThat(denied.getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
      assertThat(denied.getErrorMessage()).isEqualTo("Your user doesn't have privilege to perform this action");
      assertThat(store.find(new JobSelection())).isEqualTo(before);

      // an Administrator: jobs 1 and 2 of cluster c ended over 30 days ago; other's job stays
      Response dumped = archive.dump(ADAM, dump);
      assertThat(dumped.getErrorMessage()).isEmpty();
      assertThat(dumped.getArchive().getJobs()).isEqualTo(2);
      assertThat(store.find(new JobSelection())).extracting(AcctJob::getJobId).containsExactly(3, 4, 5, 7);
      Path file = dir.resolve("c_job_archive");
      assertThat(ArchiveService.read(file)).extracting(AcctJob::getJobId).containsExactly(1, 2);
      assertThat(Files.getPosixFilePermissions(file)).hasToString("[OWNER_READ, OWNER_WRITE]");

      ArchiveLoadRequest load = ArchiveLoadRequest.newBuilder().setFile(file.toString()).build();
      assertThat(archive.load(PETE, load).getErrorCode()).isEqualTo(SlurmError.ACCESS_DENIED.code());
      Response checked = archive.load(ADAM, load.toBuilder().setCheckOnly(true).build());
      assertThat(checked.getArchive().getJobs()).isEqualTo(2);
      assertThat(store.find(new JobSelection())).hasSize(4); // a check stores nothing

      Response loaded = archive.load(ROOT, load);
      assertThat(loaded.getErrorMessage()).isEmpty();
      assertThat(loaded.getArchive().getJobs()).isEqualTo(2);
      assertThat(store.find(new JobSelection())).isEqualTo(before);
      assertThat(archive.load(ROOT, load).getArchive().getJobs()).isZero(); // twice: nothing twice
      assertThat(store.find(new JobSelection())).isEqualTo(before);

      // archived again after the load: the file holds them twice, loading still stores them once
      assertThat(archive.dump(ROOT, dump).getArchive().getJobs()).isEqualTo(2);
      assertThat(ArchiveService.read(file)).extracting(AcctJob::getJobId).containsExactly(1, 2, 1, 2);
      assertThat(archive.load(ROOT, load).getArchive().getJobs()).isEqualTo(2);
      assertThat(store.find(new JobSelection())).isEqualTo(before);

      // a restored row holds the events its cluster had: an older event cannot undo it
      store.store("c", List.of(AcctEvent.newBuilder().setEventId(3).setJob(job("c", 1, 0)).build()));
      assertThat(store.find(new JobSelection())).isEqualTo(before);
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void stepsArchivedWhenDroppedComeBackOnLoad(Storage storage) throws Exception {
    inFreshDatabase(storage, (db, store) -> {
      store.store("c", List.of(AcctEvent.newBuilder().setEventId(1).setJob(job("c", 1, 10 * DAY)).build(),
          AcctEvent.newBuilder().setEventId(2).setJob(job("c", 2, 100 * DAY - 60)).build()));
      List<AcctJob> before = store.find(new JobSelection());
      Path dir = Files.createDirectories(tmp.resolve("steps"));
      ArchiveService archive = service(db, store);
      assertThat(archive.dump(ROOT, ArchiveDumpRequest.newBuilder().setSteps(true).setPurgeStepAfter("12hours")
          .setDirectory(dir.toString()).build()).getErrorMessage()).isEmpty();
      List<AcctJob> after = store.find(new JobSelection());
      assertThat(after.get(0).getStepsList()).isEmpty();
      assertThat(after.get(1).getStepsList()).hasSize(1);
      assertThat(archive.load(ROOT, ArchiveLoadRequest.newBuilder().setFile(dir.resolve("c_step_archive").toString())
          .build()).getArchive().getJobs()).isEqualTo(1);
      assertThat(store.find(new JobSelection())).isEqualTo(before);
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void filesThatAreNotArchivesAndOtherMistakesAreRefusedWithSlurmsErrors(Storage storage) throws Exception {
    inFreshDatabase(storage, (db, store) -> {
      ArchiveService archive = service(db, store);
      Path junk = tmp.resolve("hostname");
      Files.writeString(junk, "somehost\n");
      Response r = archive.load(ROOT, ArchiveLoadRequest.newBuilder().setFile(junk.toString()).build());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.BAD_ADDRESS.code());
      assertThat(r.getErrorMessage()).isEqualTo("Error with request.");
      r = archive.load(ROOT, ArchiveLoadRequest.newBuilder().setFile(tmp.resolve("none").toString()).build());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.NO_SUCH_FILE.code());
      assertThat(r.getErrorMessage()).isEqualTo("No archive file given to recover.");
      r = archive.load(ROOT, ArchiveLoadRequest.newBuilder().setInsert("DELETE FROM corral_job").build());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.UNEXPECTED.code());
      r = archive.load(ROOT, ArchiveLoadRequest.getDefaultInstance());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.UNEXPECTED.code());
      // a cluster slurmdbd never stored jobs of, with something to purge
      r = archive.dump(ROOT, ArchiveDumpRequest.newBuilder().setPurgeJobAfter("1000months").addClusters("nosuch")
          .build());
      assertThat(r.getErrorCode()).isEqualTo(SlurmError.UNEXPECTED.code());
      assertThat(r.getErrorMessage()).isEqualTo("Error with request.");
      // nothing to purge: nothing done, success
      assertThat(archive.dump(ROOT, ArchiveDumpRequest.newBuilder().addClusters("nosuch").build()).getErrorCode())
          .isZero();
    });
  }
}
