package org.corral.ctld.sched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.config.SchedulingConfig;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.ShareRow;
import org.junit.jupiter.api.Test;

/**
 * The association tree of the reference recording (/work/acct-ref: root > {root user, chem 20,
 * physics 50 > {alice, theory > {alice, bob}}}) with the usage Slurm 22.05 reported there, and
 * the numbers its sshare printed (sshare_19_o_all_P, sshare_09_a_l, live_11_sshare_a).
 */
class ShareTreeTest {
  static AcctAssoc acct(int id, String name, String parent, int shares) {
    AcctAssoc.Builder b = AcctAssoc.newBuilder().setId(id).setCluster("reference").setAccount(name)
        .setParentAccount(parent);
    if (shares > 0) {
      b.setLimits(AcctLimits.newBuilder().setShares(shares));
    }
    return b.build();
  }

  static AcctAssoc user(int id, String account, String user) {
    return AcctAssoc.newBuilder().setId(id).setCluster("reference").setAccount(account).setUser(user).build();
  }

  /** The reference's associations (ids as sshare -o ID printed them), in slurmdbd's order. */
  static AssocTree reference() {
    return new AssocTree(AssocSnapshot.newBuilder()
        .addUsers(AcctUser.newBuilder().setName("root").setDefaultAccount("root"))
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics"))
        .addUsers(AcctUser.newBuilder().setName("bob").setDefaultAccount("theory"))
        .addAssocs(acct(1, "root", "", 0)).addAssocs(user(2, "root", "root"))
        .addAssocs(acct(7, "chem", "root", 20)).addAssocs(acct(13, "physics", "root", 50))
        .addAssocs(acct(14, "theory", "physics", 0)).addAssocs(user(15, "theory", "alice"))
        .addAssocs(user(16, "physics", "alice")).addAssocs(user(17, "theory", "bob"))
        .addAssocs(user(30, "other", "carol").toBuilder().setCluster("elsewhere")) // another cluster's
        .build(), "reference");
  }

  // Jobs 25-27 ran side by side with 4, 8 and 2 CPUs: usage 4:8:2 (sshare: 835, 1671, 417 of 2924).
  static final double UNIT = 208.88;
  static final Map<UsageTracker.JobAssoc, Double> USAGE = Map.of(
      new UsageTracker.JobAssoc("physics", "alice", "debug"), 4 * UNIT,
      new UsageTracker.JobAssoc("theory", "bob", "debug"), 8 * UNIT,
      new UsageTracker.JobAssoc("theory", "alice", "debug"), 2 * UNIT);

  static ClusterState empty() {
    return TestStates.cluster(4, 8, 4000);
  }

  static String f(double v) { // as C's %f
    return Double.isInfinite(v) ? "inf" : String.format(java.util.Locale.ROOT, "%f", v);
  }

  /** One row as sshare -P -o Account,User,ID,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS. */
  static String line(ShareRow r) {
    return String.join("|", r.getAccount(), r.getUser(), String.valueOf(r.getAssocId()),
        r.hasRawShares() ? String.valueOf(r.getRawShares()) : "", f(r.getNormShares()),
        String.valueOf((long) r.getRawUsage()), r.hasNormUsage() ? f(r.getNormUsage()) : "",
        f(r.getEffectiveUsage()), r.hasFairshare() ? f(r.getFairshare()) : "",
        r.hasLevelFs() ? f(r.getLevelFs()) : "");
  }

  @Test
  void fairTreeGivesTheReferenceNumbers() {
    ShareTree t = ShareTree.build(reference(), USAGE, true, empty(), 0);
    assertThat(t.rows().stream().map(ShareTreeTest::line).toList()).containsExactly(
        "root||1||0.000000|2924||1.000000||",
        "root|root|2|1|0.014085|0|0.000000|0.000000|1.000000|inf",
        "chem||7|20|0.281690|0|0.000000|0.000000||inf",
        "physics||13|50|0.704225|2924|1.000000|1.000000||0.704225",
        "physics|alice|16|1|0.500000|835|0.285714|0.285714|0.750000|1.750000",
        "theory||14|1|0.500000|2088|0.714286|0.714286||0.700000",
        "theory|alice|15|1|0.500000|417|0.142857|0.200000|0.500000|2.500000",
        "theory|bob|17|1|0.500000|1671|0.571429|0.800000|0.250000|0.625000");
    assertThat(t.rows()).allMatch(r -> r.getCluster().equals("reference"));
    assertThat(t.rows().get(4).getParent()).isEqualTo("physics");
    assertThat(t.rows().get(5).getParent()).isEqualTo("physics");
    assertThat(t.rows().get(0).getTresRunMins())
        .isEqualTo("cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0");
  }

  @Test
  void withoutUsageEveryUserTiesAtTheTop() {
    ShareTree t = ShareTree.build(reference(), Map.of(), true, empty(), 0);
    assertThat(t.rows().stream().filter(r -> !r.getUser().isEmpty()).map(ShareRow::getFairshare))
        .containsExactly(1.0, 1.0, 1.0, 1.0); // live_11_sshare_a
    assertThat(t.rows().get(3).getEffectiveUsage()).isZero();
  }

  @Test
  void jobsGetTheirAssociationsFactor() {
    ShareTree t = ShareTree.build(reference(), USAGE, true, empty(), 0);
    JobInfo bob = JobInfo.newBuilder().setUserName("bob").setAccount("theory").setPartition("debug").build();
    assertThat(t.factor(bob)).isEqualTo(0.25);
    // no account on the job (or one without an association): the user's default account's
    assertThat(t.factor(bob.toBuilder().setAccount("").build())).isEqualTo(0.25);
    assertThat(t.factor(bob.toBuilder().setUserName("alice").setAccount("chem").build())).isEqualTo(0.75);
    assertThat(t.factor(bob.toBuilder().setUserName("nobody").build())).isZero();
  }

  @Test
  void tiedAccountsAreMergedAndAUsersTieCarriesIntoTheAccount() {
    // root > {u1 (no usage), a (no usage) > {u2, u3 (usage)}, b (usage) > {u4}}
    AssocTree tree = new AssocTree(AssocSnapshot.newBuilder()
        .addAssocs(acct(1, "root", "", 0)).addAssocs(user(2, "root", "u1"))
        .addAssocs(acct(3, "a", "root", 0)).addAssocs(acct(4, "b", "root", 0))
        .addAssocs(user(5, "a", "u2")).addAssocs(user(6, "a", "u3")).addAssocs(user(7, "b", "u4"))
        .build(), "reference");
    ShareTree t = ShareTree.build(tree, Map.of(new UsageTracker.JobAssoc("a", "u3", ""), 10.0,
        new UsageTracker.JobAssoc("b", "u4", ""), 30.0), true, empty(), 0);
    Map<String, Double> fs = new java.util.HashMap<>();
    t.rows().stream().filter(r -> !r.getUser().isEmpty()).forEach(r -> fs.put(r.getUser(), r.getFairshare()));
    // level: u1 inf; a 1/3 / 0.25 = 1.33; b 1/3 / 0.75 = 0.44. In a: u2 inf, u3 0.5/1 = 0.5.
    assertThat(fs).containsExactlyInAnyOrderEntriesOf(Map.of("u1", 1.0, "u2", 0.75, "u3", 0.5, "u4", 0.25));
  }

  @Test
  void classicFairshareDecaysWithEffectiveUsage() {
    ShareTree t = ShareTree.build(reference(), USAGE, false, empty(), 0);
    Map<String, ShareRow> by = new java.util.HashMap<>();
    t.rows().forEach(r -> by.put(r.getAccount() + "/" + r.getUser(), r));
    // NormShares: products of the fractions down the tree
    assertThat(by.get("physics/").getNormShares()).isCloseTo(50 / 71.0, within(1e-12));
    assertThat(by.get("theory/bob").getNormShares()).isCloseTo(50 / 71.0 * 0.5 * 0.5, within(1e-12));
    // EffectvUsage: NormUsage under root, then UA + (UE parent - UA) * S/Ssiblings
    double physics = 1.0;
    double theory = 5 / 7.0 + (physics - 5 / 7.0) * 0.5;
    double bob = 4 / 7.0 + (theory - 4 / 7.0) * 0.5;
    assertThat(by.get("physics/").getEffectiveUsage()).isCloseTo(physics, within(1e-12));
    assertThat(by.get("theory/bob").getEffectiveUsage()).isCloseTo(bob, within(1e-12));
    assertThat(by.get("theory/bob").getFairshare())
        .isCloseTo(Math.pow(2, -bob / (50 / 71.0 * 0.25)), within(1e-12));
    assertThat(by.get("chem/").getFairshare()).isEqualTo(1.0); // every row has one in classic
    assertThat(t.rows().get(0).getFairshare()).isEqualTo(0.5);
  }

  @Test
  void priorityPassUsesTheTreeAndPublishesIt() {
    SchedulingConfig cfg = new SchedulingConfig(true, new SchedulingConfig.Weights(0, 0, 10000, 0, 0, 0, Map.of()),
        3600, false, Set.of(), 7 * 86400, 300, true, SchedulingConfig.Backfill.DEFAULTS);
    ClusterState s = empty();
    s = StateMachine.apply(s, new Command.SubmitJob(1, 1001, 1001, "bob", 1001, "bob",
        TestStates.spec().setNumTasks(8).build()));
    s = StateMachine.apply(s, new Command.StartJob(1, 1002, List.of(
        org.corral.protocol.msg.NodeAllocation.newBuilder().setNode("n1").setCpus(8).setMemMb(800).build())));
    s = StateMachine.apply(s, new Command.SubmitJob(2, 1003, 1001, "bob", 1001, "bob", TestStates.spec().build()));
    s = StateMachine.apply(s, new Command.SubmitJob(3, 1003, 1000, "alice", 1000, "alice", TestStates.spec().build()));
    PriorityPass pass = new PriorityPass(cfg);
    AssocTree tree = reference();
    pass.recalc(s, 1010, tree);
    Command.SetPriorities later = pass.recalc(s, 1010 + 300, tree); // bob ran 8 CPUs for 300 s
    // theory: bob used everything, alice nothing; physics' alice untouched: ranks 4 (root), 3, 2, 1
    assertThat(later.priorities().get(3).factors().getFairshare()).isEqualTo(0.75); // alice@physics
    assertThat(later.priorities().get(2).factors().getFairshare()).isEqualTo(0.25); // bob@theory
    ShareTree published = pass.shares();
    ShareRow bob = published.rows().stream().filter(r -> r.getUser().equals("bob")).findFirst().orElseThrow();
    assertThat(bob.getRawUsage()).isCloseTo(2400, within(1e-9));
  }
}
