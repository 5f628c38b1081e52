package org.corral.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.corral.testkit.TestUsers;
import org.junit.jupiter.api.Test;

/**
 * Advance reservations through the commands, with two users: only an administrator creates one;
 * a user it does not name is refused at submission; a named user's job runs on its node while
 * another job waits outside it; the reservation survives a restart of the controller.
 */
class ReservationTest {

  @Test
  void reservedNodesAreForTheReservationsUsersAndSurviveARestart() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster cluster = LocalCluster.up(2, 2, 2000)) {
      Path aw = cluster.workDir(alice);
      Path bw = cluster.workDir(bob);

      LocalCluster.Result byUser = cluster.as(alice, aw, "scontrol", "create", "reservation", "starttime=now",
          "duration=60", "nodes=n2", "users=" + alice.name());
      assertThat(byUser.exitCode()).isEqualTo(1);
      assertThat(byUser.err()).isEqualTo("Error creating the reservation: Invalid user id\n");

      LocalCluster.Result created = cluster.as(null, "scontrol", "create", "reservation", "reservationname=lab",
          "starttime=now", "duration=60", "nodes=n2", "users=" + alice.name());
      assertThat(created.out()).isEqualTo("Reservation created: lab\n");
      assertThat(cluster.as(null, "sinfo", "-h", "-n", "n2", "-o", "%t").out()).isEqualTo("resv\n");

      LocalCluster.Result outsider = cluster.as(bob, bw, "sbatch", "--reservation=lab", "--wrap", "true");
      assertThat(outsider.exitCode()).isEqualTo(1);
      assertThat(outsider.err())
          .isEqualTo("sbatch: error: Batch job submission failed: Access denied to requested reservation\n");

      // bob fills n1; his second job may not use the reserved n2 and waits
      int bobs = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-n2", "--wrap", "sleep 300"));
      assertThat(cluster.awaitState(bobs, "RUNNING", 30)).isEqualTo("RUNNING");
      int waiting = LocalCluster.jobId(cluster.as(bob, bw, "sbatch", "-n2", "--wrap", "sleep 300"));
      int inside = LocalCluster.jobId(cluster.as(alice, aw, "sbatch", "--reservation=lab", "-n2", "--wrap",
          "sleep 300"));
      assertThat(cluster.awaitState(inside, "RUNNING", 30)).isEqualTo("RUNNING");
      assertThat(cluster.as(null, "squeue", "-h", "-j", String.valueOf(inside), "-o", "%N %v").out())
          .isEqualTo("n2 lab\n");
      assertThat(cluster.state(waiting)).isEqualTo("PENDING");

      LocalCluster.Result inUse = cluster.as(null, "scontrol", "delete", "reservation", "lab");
      assertThat(inUse.err()).isEqualTo("delete_reservation reservation: Requested reservation is in use\n");

      cluster.as(null, "scontrol", "update", "reservationname=lab", "flags=daily");
      // the controller dies (kill -9) and comes back from its journal
      new ProcessBuilder("kill", "-9", String.valueOf(cluster.pid("slurmctld.pid"))).inheritIO().start().waitFor();
      assertThat(cluster.corral("up", "--dir", cluster.dir.toString()).exitCode()).isZero();
      String shown = cluster.as(alice, "scontrol", "show", "reservation", "lab").out();
      assertThat(shown).contains("ReservationName=lab ", "Nodes=n2 NodeCnt=1 CoreCnt=2",
          "Flags=DAILY,SPEC_NODES", "Users=" + alice.name() + " ", "State=ACTIVE");
      assertThat(cluster.as(null, "squeue", "-h", "-j", String.valueOf(inside), "-o", "%v").out())
          .isEqualTo("lab\n");
    }
  }

  /** A MAGNETIC reservation draws in the jobs of the users it admits that did not ask for it. */
  @Test
  void magneticReservationsDrawInTheirUsersJobs() throws Exception {
    assumeTrue(TestUsers.canCreate(), "needs root to create test users and run jobs as them");
    TestUsers.User alice = TestUsers.ensure(TestUsers.ALICE);
    TestUsers.User bob = TestUsers.ensure(TestUsers.BOB);
    try (LocalCluster cluster = LocalCluster.up(2, 2, 2000)) {
      assertThat(cluster.as(null, "scontrol", "create", "reservation", "reservationname=mag", "starttime=now",
          "duration=60", "nodes=n2", "users=" + bob.name(), "flags=magnetic").out())
          .isEqualTo("Reservation created: mag\n");
      LocalCluster.Result added = cluster.as(null, "scontrol", "update", "reservationname=mag",
          "users+=" + alice.name());
      assertThat(added.out()).isEqualTo("Reservation updated.\n");
      assertThat(cluster.as(null, "scontrol", "update", "reservationname=mag", "users-=" + bob.name()).out())
          .isEqualTo("Reservation updated.\n");
      assertThat(cluster.as(null, "scontrol", "show", "reservation", "mag").out())
          .contains("Users=" + alice.name() + " ");

      // n1 is free, yet alice's job goes into her magnetic reservation; bob's stays outside
      int drawn = LocalCluster.jobId(cluster.as(alice, cluster.workDir(alice), "sbatch", "-n1", "--wrap",
          "sleep 300"));
      assertThat(cluster.awaitState(drawn, "RUNNING", 30)).isEqualTo("RUNNING");
      int outside = LocalCluster.jobId(cluster.as(bob, cluster.workDir(bob), "sbatch", "-n1", "--wrap",
          "sleep 300"));
      assertThat(cluster.awaitState(outside, "RUNNING", 30)).isEqualTo("RUNNING");
      assertThat(cluster.as(null, "squeue", "-h", "-j", drawn + "," + outside, "-o", "%i %N %v", "--sort=i").out())
          .isEqualTo(drawn + " n2 mag\n" + outside + " n1 (null)\n");
    }
  }
}
