package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.ctld.sched.limits.AssocTree;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobInfo;
import org.junit.jupiter.api.Test;

/** The controller's rights with accounting: AdminLevel and coordinators, by user. */
class AuthorizerTest {
  private static final int SLURM_UID = 450;

  /** physics > theory; carol coordinates physics, dave theory; olga is an Operator, adam an Administrator. */
  private final AssocTree tree = new AssocTree(AssocSnapshot.newBuilder()
      .addUsers(AcctUser.newBuilder().setName("alice").setAdminLevel(1))
      .addUsers(AcctUser.newBuilder().setName("carol").setAdminLevel(1).addCoordAccounts("physics"))
      .addUsers(AcctUser.newBuilder().setName("dave").setAdminLevel(1).addCoordAccounts("theory"))
      .addUsers(AcctUser.newBuilder().setName("olga").setAdminLevel(2))
      .addUsers(AcctUser.newBuilder().setName("adam").setAdminLevel(3))
      .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("theory").setParentAccount("physics"))
      .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("physics").setUser("alice"))
      .addAssocs(AcctAssoc.newBuilder().setId(5).setCluster("c").setAccount("theory").setUser("alice"))
      .build(), "c");
  private final Authorizer auth = new Authorizer(SLURM_UID, () -> tree);

  private static Peer user(int uid, String name) {
    return new Peer(uid, uid, name, null);
  }

  private static JobInfo aliceJob(String account) {
    return JobInfo.newBuilder().setUserId(1001).setUserName("alice").setAccount(account).setPartition("debug").build();
  }

  @Test
  void adminLevelsAndRootActOnEveryJob() {
    for (Peer p : new Peer[] {user(0, "root"), user(SLURM_UID, "slurm"), user(2001, "olga"), user(2002, "adam"),
        Peer.daemon("n1")}) {
      assertThat(auth.isAdmin(p)).as(String.valueOf(p)).isTrue();
      assertThat(auth.mayActOnJob(p, aliceJob("theory"))).isTrue();
    }
  }

  @Test
  void coordinatorsActOnTheirAccountsAndTheOnesBelowOnly() {
    Peer carol = user(2003, "carol");
    Peer dave = user(2004, "dave");
    assertThat(auth.isAdmin(carol)).isFalse();
    assertThat(auth.mayActOnJob(carol, aliceJob("physics"))).isTrue();
    assertThat(auth.mayActOnJob(carol, aliceJob("theory"))).isTrue();  // below physics
    assertThat(auth.mayActOnJob(dave, aliceJob("theory"))).isTrue();
    assertThat(auth.mayActOnJob(dave, aliceJob("physics"))).isFalse(); // above theory
    assertThat(auth.mayActOnJob(carol, aliceJob(""))).isFalse();
  }

  @Test
  void plainUsersActOnTheirOwnJobsOnly() {
    assertThat(auth.mayActOnJob(user(1001, "alice"), aliceJob("physics"))).isTrue();
    assertThat(auth.mayActOnJob(user(1002, "bob"), aliceJob("physics"))).isFalse();
    assertThat(auth.isAdmin(user(1001, "alice"))).isFalse();
    assertThat(new Authorizer(SLURM_UID).isAdmin(user(2001, "olga"))).isFalse(); // no accounting
  }
}
