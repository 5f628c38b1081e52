package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Node events end to end, two users: root drains a node and resumes it while slurmdbd is killed;
 * the events wait in the controller's outbox and, once slurmdbd is back, alice (anyone may list
 * events) sees the closed drain with its reason and who set it, then the open one root starts next.
 */
class NodeEventsTest {
  @Test
  void aNodeDrainedWhileSlurmdbdIsDownShowsInSacctmgrOnceItIsBack() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster c = LocalCluster.up(2, 2, 1000)) {
      new ProcessBuilder("kill", "-9", String.valueOf(c.pid("slurmdbd.pid"))).inheritIO().start().waitFor();
      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=drain", "reason=e2e maintenance")
          .exitCode()).isZero();
      Thread.sleep(1100); // the resume a second later, so the event lasts
      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=resume").exitCode()).isZero();
      assertThat(c.corral("up", "--dir", c.dir.toString()).exitCode()).isZero(); // slurmdbd again

      String[] show = {"sacctmgr", "-n", "-P", "show", "event", "nodes=n2", "format=nodename,state,reason,user,end"};
      String listed = await(c, alice, show, 1);
      assertThat(listed).startsWith("n2|DRAIN|e2e maintenance|root(0)|").doesNotContain("Unknown");

      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=drain", "reason=again").exitCode()).isZero();
      listed = await(c, alice, show, 2);
      assertThat(listed.lines().toList().get(1)).isEqualTo("n2|DRAIN|again|root(0)|Unknown");
      assertThat(c.as(alice, "sacctmgr", "-n", "-P", "show", "event", "states=drain", "format=nodename,reason")
          .out()).isEqualTo("n2|again\n"); // States= without Start=: the events still open
    }
  }

  /**
   * scontrol update State=FAIL, as on the reference Slurm 22.05: the node shows fail (sinfo) and
   * IDLE+FAIL with its reason (scontrol), takes no new job, and once resumed sacctmgr shows the
   * closed event as the reference records it (StateRaw 8194: IDLE with the FAIL flag).
   */
  @Test
  void aFailedNodeTakesNoJobsAndItsEventShowsAsTheReferenceShowsIt() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to run the cluster's daemons and commands as users");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    try (LocalCluster c = LocalCluster.up(2, 2, 1000)) {
      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=fail").err())
          .isEqualTo("You must specify a reason when DOWNING or DRAINING a node. Request denied\n");
      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=fail", "reason=fan noise").exitCode())
          .isZero();
      assertThat(c.as(alice, "sinfo", "-h", "-N", "-o", "%N %t %T %E").out())
          .isEqualTo("n1 idle idle none\nn2 fail fail fan noise\n");
      assertThat(c.as(alice, "scontrol", "show", "node", "n2").out()).contains("State=IDLE+FAIL ")
          .contains("Reason=fan noise [root@");
      String job = c.as(alice, "sbatch", "--parsable", "-N2", "-o", "/dev/null", "--wrap", "true").out().strip();
      Thread.sleep(1500); // scheduling passes go by: the job must not start on the failed node
      assertThat(c.as(alice, "squeue", "-h", "-j", job, "-o", "%T").out()).isEqualTo("PENDING\n");
      assertThat(c.as(null, "scontrol", "update", "nodename=n2", "state=resume").exitCode()).isZero();
      String[] show = {"sacctmgr", "-n", "-P", "show", "event", "nodes=n2",
          "format=nodename,stateraw,state,reason,user"};
      assertThat(await(c, alice, show, 1)).isEqualTo("n2|8194|FAIL|fan noise|root(0)\n");
    }
  }

  /** sacctmgr's listing once it has {@code lines} lines (or the last one seen after 30 seconds). */
  private static String await(LocalCluster c, TestUsers.User user, String[] cmd, int lines) throws Exception {
    String out = "";
    for (int i = 0; i < 120; i++) {
      out = c.as(user, cmd).out();
      if (out.lines().count() >= lines) {
        break;
      }
      Thread.sleep(250);
    }
    return out;
  }
}
