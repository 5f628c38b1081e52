package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Gang scheduling through the commands: two jobs on the one CPU of a FORCE:2 partition with
 * PreemptMode=GANG and SchedulerTimeSlice=5 take turns; each one's counter file grows while the
 * other, SUSPENDED (squeue S, scontrol SuspendTime), stands still, and then the other way round.
 */
class GangSchedulingTest {
  private static final Pattern STATE = Pattern.compile("JobState=(\\S+)");
  private static final Pattern SUSPEND_TIME = Pattern.compile("SuspendTime=(\\S+)");
  private static LocalCluster cluster;
  private static TestUsers.User alice;

  @BeforeAll
  static void up() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    alice = TestUsers.ensure(TestUsers.ALICE);
    cluster = LocalCluster.upWithConfig(1, """
        ClusterName=gang
        PreemptMode=GANG
        SchedulerTimeSlice=5
        DefMemPerCPU=100
        NodeName=g1 CPUs=1 RealMemory=1000
        PartitionName=sliced Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:2
        """);
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.cancelAllOf(alice);
      cluster.close();
    }
  }

  /** What one look at both jobs shows: each one's state and SuspendTime, and its counter's size. */
  private record Look(String state, String suspendTime, long size) {}

  /** One {@code scontrol show job} for both jobs, so that one look is quick (a slice is 5 s). */
  private static Look[] look(int a, Path aCounter, int b, Path bCounter) throws Exception {
    String all = cluster.as(null, "scontrol", "show", "job").out();
    return new Look[] {lookAt(all, a, aCounter), lookAt(all, b, bCounter)};
  }

  private static Look lookAt(String all, int job, Path counter) throws Exception {
    int at = all.indexOf("JobId=" + job + " ");
    String show = at < 0 ? "" : all.substring(at);
    return new Look(field(STATE, show), field(SUSPEND_TIME, show), Files.exists(counter) ? Files.size(counter) : 0);
  }

  private static String field(Pattern p, String text) {
    Matcher m = p.matcher(text);
    return m.find() ? m.group(1) : "";
  }

  /**
   * Waits for a stretch in which {@code running} runs and {@code waiting} is suspended from start
   * to end (neither's state nor SuspendTime changed), and checks what the files did meanwhile.
   */
  private static void awaitTurn(int running, Path runningCounter, int waiting, Path waitingCounter) throws Exception {
    for (int attempt = 0; attempt < 60; attempt++) {
      Look[] before = look(running, runningCounter, waiting, waitingCounter);
      if (!before[0].state().equals("RUNNING") || !before[1].state().equals("SUSPENDED")) {
        assertThat(before[0].state() + before[1].state()).doesNotContain("FAILED").doesNotContain("COMPLETED");
        Thread.sleep(300);
        continue;
      }
      Thread.sleep(700); // SIGSTOP and SIGCONT have landed, and a write under way with them
      long r1 = Files.size(runningCounter);
      long w1 = Files.exists(waitingCounter) ? Files.size(waitingCounter) : 0;
      Thread.sleep(1200);
      Look[] after = look(running, runningCounter, waiting, waitingCounter);
      if (after[0].equals(new Look(before[0].state(), before[0].suspendTime(), after[0].size()))
          && after[1].equals(new Look(before[1].state(), before[1].suspendTime(), after[1].size()))) {
        assertThat(after[0].size()).as("job %d runs", running).isGreaterThan(r1);
        assertThat(after[1].size()).as("job %d stands still", waiting).isEqualTo(w1);
        assertThat(after[1].suspendTime()).isNotEqualTo("None");
        return;
      }
    }
    throw new AssertionError("job " + running + " never ran while job " + waiting + " was suspended: "
        + cluster.as(null, "scontrol", "show", "job", String.valueOf(running)).out() + output(running));
  }

  /** Waits until one squeue shows one job running (R) and the other suspended (S). */
  private static void awaitCodes(int a, int b) throws Exception {
    String codes = "";
    for (int i = 0; i < 100; i++) {
      codes = cluster.as(null, "squeue", "-h", "-o", "%i %t", "-j", a + "," + b).out();
      if (codes.contains(" R\n") && codes.contains(" S\n")) {
        return;
      }
      Thread.sleep(300);
    }
    assertThat(codes).contains(" R\n").contains(" S\n");
  }

  /** The job's output file, for a failure's message. */
  private static String output(int job) throws Exception {
    Path out = cluster.workDir(alice).resolve("slurm-" + job + ".out");
    return Files.exists(out) ? Files.readString(out) : "(no " + out + ")";
  }

  @Test
  void twoJobsOnOneCpuTakeTurnsEveryTimeSlice() throws Exception {
    Path aw = cluster.workDir(alice);
    Path first = aw.resolve("first");
    Path second = aw.resolve("second");
    int a = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-n1", "--wrap",
        "while true; do echo x >> " + first + "; sleep 0.1; done"));
    assertThat(cluster.awaitState(a, "RUNNING", 30)).isEqualTo("RUNNING");
    int b = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "-n1", "--wrap",
        "while true; do echo x >> " + second + "; sleep 0.1; done"));
    assertThat(cluster.awaitState(b, "SUSPENDED", 30)).isEqualTo("SUSPENDED"); // allocated beside a, waits

    awaitTurn(b, second, a, first); // b's turn comes within a slice or two
    awaitTurn(a, first, b, second);
    awaitTurn(b, second, a, first);
    awaitCodes(a, b);
    assertThat(cluster.as(null, "scontrol", "show", "job", String.valueOf(a)).out()).contains(" OverSubscribe=YES ");
  }
}
