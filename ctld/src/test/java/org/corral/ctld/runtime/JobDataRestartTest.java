package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.corral.common.SlurmError;
import org.corral.common.config.SlurmConfig;
import org.corral.ctld.journal.RecoveryMode;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.BatchScriptRequest;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.testkit.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many held jobs, some with scripts of their own and many sharing one (as an array's or a
 * workflow's): the scripts leave the journal and snapshots for files in StateSaveLocation, and a
 * restarted controller, by journal replay or from its snapshot, has every job with its script.
 */
class JobDataRestartTest {
  private static final int OWN = 300;
  private static final int SHARED = 1200;
  private static final String SHARED_SCRIPT = "#!/bin/sh\necho shared-script-marker\n";

  @TempDir Path dir;

  private SlurmConfig config(int ctldPort) throws Exception {
    return TestClusterConfig.write(dir, ctldPort, """
        MaxJobCount=100000
        NodeName=n1 NodeAddr=127.0.0.1 Port=%d CPUs=4 RealMemory=1000
        PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
        """.formatted(FreePorts.one()));
  }

  private static String ownScript(int i) {
    return "#!/bin/sh\necho own-script-marker " + i + "\n";
  }

  private static Request submit(String script) {
    return Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(JobSpec.newBuilder()
        .setName("t").setScript(script).setWorkDir("/tmp").setHold(true)
        .addEnvironment("HOME=/root").addEnvironment("BIG=" + "x".repeat(5000)))).build();
  }

  private static String script(UnixSocketChannel ch, int id) throws Exception {
    Response r = ch.call(Request.newBuilder().setBatchScript(BatchScriptRequest.newBuilder().setJobId(id)).build());
    assertThat(r.getErrorMessage()).isEmpty();
    return r.getBatchScript().getScript();
  }

  private List<Path> filesUnder(String sub) throws Exception {
    try (Stream<Path> s = Files.walk(dir.resolve("state").resolve(sub))) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void aRestartedControllerHasEveryJobWithItsScriptAndTheJournalHoldsNone() throws Exception {
    int port = FreePorts.one();
    SlurmConfig cfg = config(port);
    UnixSocketChannel user = new UnixSocketChannel(dir.resolve("slurmctld-" + port + ".sock"));
    List<Integer> own = new ArrayList<>();
    List<Integer> shared = new ArrayList<>();
    try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false, Duration.ofSeconds(2));
        var pool = Executors.newFixedThreadPool(16)) {
      List<Future<Response>> replies = new ArrayList<>();
      for (int i = 0; i < OWN + SHARED; i++) {
        String s = i < OWN ? ownScript(i) : SHARED_SCRIPT;
        replies.add(pool.submit(() -> user.call(submit(s))));
      }
      for (int i = 0; i < replies.size(); i++) {
        Response r = replies.get(i).get();
        assertThat(r.getErrorMessage()).isEmpty();
        (i < OWN ? own : shared).add(r.getSubmitJob().getJobId());
      }
      Response refused = user.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
          .setSpec(JobSpec.newBuilder().setScript("#!/bin/sh\n").setScriptRef("0".repeat(64)))).build());
      assertThat(refused.getErrorCode()).isEqualTo(SlurmError.INVALID_MESSAGE.code());
    }
    // one file per distinct script, one for the environment they share
    assertThat(filesUnder("job_data")).hasSize(OWN + 1 + 1);
    for (Path journalFile : filesUnder("journal")) {
      String text = new String(Files.readAllBytes(journalFile), StandardCharsets.ISO_8859_1);
      assertThat(text).doesNotContain("script-marker").doesNotContain("xxxxxxxxxx");
    }
    // journal replay alone: without the snapshot the close wrote
    for (Path f : filesUnder("journal")) {
      if (f.getFileName().toString().startsWith("snapshot-")) {
        Files.delete(f);
      }
    }
    // a file a crash left before its job was journaled
    Path orphan = dir.resolve("state/job_data/ab/ab" + "0".repeat(62));
    Files.createDirectories(orphan.getParent());
    Files.writeString(orphan, "#!/bin/sh\necho never acknowledged\n");
    for (int restart = 0; restart < 2; restart++) { // replay, then from the snapshot the first restart's close wrote
      try (Controller ctld = Controller.start(cfg, Clock.systemUTC(), RecoveryMode.STRICT, false,
          Duration.ofSeconds(2))) {
        Response all = user.call(Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance()).build());
        assertThat(all.getJobInfo().getJobsCount()).isEqualTo(OWN + SHARED);
        for (int i = 0; i < OWN; i++) {
          assertThat(script(user, own.get(i))).isEqualTo(ownScript(i));
        }
        for (int id : shared) {
          assertThat(script(user, id)).isEqualTo(SHARED_SCRIPT);
        }
        assertThat(Files.exists(orphan)).isFalse();
        Response unknown = user.call(Request.newBuilder()
            .setBatchScript(BatchScriptRequest.newBuilder().setJobId(999_999)).build());
        assertThat(unknown.getErrorCode()).isEqualTo(SlurmError.INVALID_JOB_ID.code());
      }
    }
  }
}
