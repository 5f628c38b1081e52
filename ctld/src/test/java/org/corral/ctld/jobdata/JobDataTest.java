package org.corral.ctld.jobdata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scripts and environments stored as files named by their content, counted, and removed with their jobs. */
class JobDataTest {
  @TempDir Path dir;

  private static final List<String> ENV = List.of("HOME=/home/alice", "PATH=/usr/bin:/bin", "EMPTY=", "G=grüß");

  private static JobSpec spec(String script) {
    return TestStates.spec().setScript(script).addAllEnvironment(ENV).build();
  }

  private Path data() {
    return dir.resolve("job_data");
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> s = Files.walk(data())) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  /** Applies a command as the writer does, telling the store. */
  private static ClusterState apply(JobData d, ClusterState s, Command c) {
    ClusterState after = StateMachine.apply(s, c);
    d.applied(s, after, c);
    return after;
  }

  private static Command submit(int id, JobSpec spec) {
    return new Command.SubmitJob(id, 100, 1000, "alice", 1000, "alice", spec);
  }

  private static void purgeDurably(JobData d) {
    d.takeUnreferenced().forEach(d::deleteIfUnused);
  }

  @Test
  void identicalScriptsAreOneFilePrivateToItsOwnerAndTheSpecNamesIt() throws Exception {
    JobData d = JobData.open(data());
    try (JobData.Stored a = d.store(spec("#!/bin/sh\necho a\n"));
        JobData.Stored b = d.store(spec("#!/bin/sh\necho a\n"))) {
      assertThat(a.spec().getScript()).isEmpty();
      assertThat(a.spec().getEnvironmentList()).isEmpty();
      assertThat(a.spec().getScriptRef()).hasSize(64).isEqualTo(b.spec().getScriptRef());
      assertThat(a.spec().getEnvironmentRef()).hasSize(64).isNotEqualTo(a.spec().getScriptRef());
      assertThat(files()).hasSize(2);
      for (Path f : files()) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.getParent()))).isEqualTo("rwx------");
      }
      JobSpec back = d.complete(a.spec());
      assertThat(back).isEqualTo(spec("#!/bin/sh\necho a\n"));
      assertThat(d.script(a.spec())).isEqualTo("#!/bin/sh\necho a\n");
    }
  }

  @Test
  void anAllocationOrABlankScriptStaysInlineForTheSubmissionChecks() throws Exception {
    JobData d = JobData.open(data());
    try (JobData.Stored blank = d.store(TestStates.spec().setScript("  \n").build());
        JobData.Stored alloc = d.store(TestStates.spec().setScript("").setInteractive(true).build())) {
      assertThat(blank.spec().getScript()).isEqualTo("  \n");
      assertThat(blank.spec().getScriptRef()).isEmpty();
      assertThat(alloc.spec().getScriptRef()).isEmpty();
      assertThat(d.complete(alloc.spec())).isEqualTo(alloc.spec());
    }
  }

  @Test
  void aFileGoesWithTheLastJobNamingItOnceThePurgeIsDurable() throws Exception {
    JobData d = JobData.open(data());
    ClusterState s = TestStates.cluster(1, 4, 1000);
    JobSpec stored;
    try (JobData.Stored a = d.store(spec("#!/bin/sh\necho shared\n"));
        JobData.Stored b = d.store(spec("#!/bin/sh\necho shared\n"))) {
      s = apply(d, s, submit(1, a.spec()));
      s = apply(d, s, submit(2, b.spec()));
      stored = a.spec();
    }
    assertThat(d.references(stored.getScriptRef())).isEqualTo(2);
    s = apply(d, s, new Command.PurgeJob(1));
    assertThat(d.takeUnreferenced()).isEmpty();
    s = apply(d, s, new Command.PurgeJob(2));
    List<String> freed = d.takeUnreferenced();
    assertThat(freed).containsExactlyInAnyOrder(stored.getScriptRef(), stored.getEnvironmentRef());
    assertThat(files()).hasSize(2); // not before the purge is durable
    freed.forEach(d::deleteIfUnused);
    assertThat(files()).isEmpty();
  }

  @Test
  void anArrayTaskSplitOffKeepsTheScriptAfterTheArrayRecordIsPurged() throws Exception {
    JobData d = JobData.open(data());
    ClusterState s = TestStates.cluster(1, 4, 1000);
    String ref;
    try (JobData.Stored a = d.store(TestStates.spec().setScript("#!/bin/sh\necho $SLURM_ARRAY_TASK_ID\n")
        .setArray("0-3").build())) {
      s = apply(d, s, submit(1, a.spec()));
      ref = a.spec().getScriptRef();
    }
    NodeAllocation n1 = NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build();
    s = apply(d, s, new Command.StartArrayTask(1, 0, 2, 110, List.of(n1)));
    assertThat(s.jobs()).containsKeys(1, 2);
    assertThat(d.references(ref)).isEqualTo(2);
    s = apply(d, s, new Command.PurgeJob(1));
    purgeDurably(d);
    assertThat(d.script(s.jobs().get(2).getSpec())).isEqualTo("#!/bin/sh\necho $SLURM_ARRAY_TASK_ID\n");
    s = apply(d, s, new Command.PurgeJob(2));
    purgeDurably(d);
    assertThat(files()).isEmpty();
  }

  @Test
  void aSubmissionInFlightKeepsTheFileAPurgeFreedMeanwhile() throws Exception {
    JobData d = JobData.open(data());
    ClusterState s = TestStates.cluster(1, 4, 1000);
    try (JobData.Stored a = d.store(spec("#!/bin/sh\necho again\n"))) {
      s = apply(d, s, submit(1, a.spec()));
    }
    s = apply(d, s, new Command.PurgeJob(1));
    List<String> freed = d.takeUnreferenced();
    try (JobData.Stored b = d.store(spec("#!/bin/sh\necho again\n"))) {
      freed.forEach(d::deleteIfUnused); // the purge's deletion runs while b is in flight
      assertThat(files()).hasSize(2);
      s = apply(d, s, submit(2, b.spec()));
    }
    assertThat(files()).hasSize(2);
    assertThat(d.script(s.jobs().get(2).getSpec())).isEqualTo("#!/bin/sh\necho again\n");
  }

  @Test
  void aRefusedSubmissionLeavesNoFile() throws Exception {
    JobData d = JobData.open(data());
    try (JobData.Stored a = d.store(spec("#!/bin/sh\necho refused\n"))) {
      assertThat(files()).hasSize(2);
    }
    assertThat(files()).isEmpty();
  }

  @Test
  void filesACrashLeftUnnamedAreDeletedAtTheNextStartAndNamedOnesKept() throws Exception {
    JobData d = JobData.open(data());
    ClusterState s = TestStates.cluster(1, 4, 1000);
    JobData.Stored kept = d.store(spec("#!/bin/sh\necho journaled\n"));
    s = StateMachine.apply(s, submit(1, kept.spec()));
    d.store(TestStates.spec().setScript("#!/bin/sh\necho never journaled\n").build()); // the crash: never closed
    Path sub = Files.list(data()).findFirst().orElseThrow();
    Files.writeString(sub.resolve("0".repeat(64) + ".7.tmp"), "torn");
    assertThat(files()).hasSize(4);

    JobData restarted = JobData.open(data());
    assertThat(restarted.recover(s)).isEqualTo(1);
    assertThat(files()).hasSize(2);
    assertThat(restarted.references(kept.spec().getScriptRef())).isEqualTo(1);
    assertThat(restarted.complete(s.jobs().get(1).getSpec())).isEqualTo(spec("#!/bin/sh\necho journaled\n"));
  }

  @Test
  void aDamagedOrMissingFileIsAnErrorNamingIt() throws Exception {
    JobData d = JobData.open(data());
    JobSpec named;
    try (JobData.Stored a = d.store(spec("#!/bin/sh\necho x\n"))) {
      named = a.spec();
      Path script = data().resolve(named.getScriptRef().substring(0, 2)).resolve(named.getScriptRef());
      Files.writeString(script, "#!/bin/sh\necho y\n");
      assertThatThrownBy(() -> d.script(named)).isInstanceOf(IOException.class).hasMessageContaining("damaged")
          .hasMessageContaining(named.getScriptRef());
      Files.delete(script);
      assertThatThrownBy(() -> d.complete(named)).isInstanceOf(IOException.class).hasMessageContaining("missing");
    }
  }

  @Test
  void environmentsRoundTripWithEmptyValuesAndUnicode() {
    assertThat(JobData.decode(JobData.encode(ENV))).isEqualTo(ENV);
    assertThat(JobData.decode(JobData.encode(List.of()))).isEmpty();
  }
}
