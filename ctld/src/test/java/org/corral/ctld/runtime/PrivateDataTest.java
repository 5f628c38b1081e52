package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.common.config.PrivateData;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.priority.ShareTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ShareInfoRequest;
import org.corral.protocol.msg.ShareRow;
import org.corral.protocol.msg.StepInfoRequest;
import org.junit.jupiter.api.Test;

/**
 * PrivateData in the controller, as Slurm 22.05 answers (recorded on a reference with two plain
 * users and a coordinator): what each sees of jobs, steps, reservations and shares, and that node
 * and partition state is refused.
 */
class PrivateDataTest {
  private static final int SLURM_UID = 450;
  private static final Peer ALICE = new Peer(1001, 1001, "alice", null);
  private static final Peer BOB = new Peer(1002, 1002, "bob", null);
  private static final Peer CAROL = new Peer(1003, 1003, "carol", null); // coordinates acctA
  private static final Peer ROOT = new Peer(0, 0, "root", null);

  private final AssocTree tree = new AssocTree(AssocSnapshot.newBuilder()
      .addUsers(AcctUser.newBuilder().setName("alice").setAdminLevel(1))
      .addUsers(AcctUser.newBuilder().setName("bob").setAdminLevel(1))
      .addUsers(AcctUser.newBuilder().setName("carol").setAdminLevel(1).addCoordAccounts("accta"))
      .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("accta").setParentAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("acctb").setParentAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("accta").setUser("alice"))
      .addAssocs(AcctAssoc.newBuilder().setId(5).setCluster("c").setAccount("acctb").setUser("bob"))
      .addAssocs(AcctAssoc.newBuilder().setId(6).setCluster("c").setAccount("accta").setUser("carol"))
      .build(), "c");

  private Authorizer auth(String privateData) {
    return new Authorizer(SLURM_UID, () -> tree, PrivateData.parse(privateData));
  }

  /** alice's job 1 (accta) and bob's job 2 (acctb), both running with a step 0. */
  private static ClusterState queue() {
    ClusterState s = TestStates.cluster(2, 8, 8000);
    NodeAllocation n1 = NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build();
    s = StateMachine.apply(s, new Command.SubmitJob(1, 100, 1001, "alice", 1001, "alice",
        TestStates.spec().setAccount("accta").build()));
    s = StateMachine.apply(s, new Command.SubmitJob(2, 100, 1002, "bob", 1002, "bob",
        TestStates.spec().setAccount("acctb").build()));
    s = StateMachine.apply(s, new Command.StartJob(1, 101, List.of(n1), -1, ""));
    s = StateMachine.apply(s, new Command.StartJob(2, 101, List.of(n1), -1, ""));
    return s;
  }

  private static List<Integer> ids(List<JobInfo> jobs) {
    return jobs.stream().map(JobInfo::getJobId).toList();
  }

  private static List<Integer> seen(Authorizer auth, Peer p, JobInfoRequest req, ClusterState s) {
    List<Integer> seen = ids(JobQueries.jobInfo(req, s, auth.jobsVisibleTo(p)).getJobsList());
    assertThat(seen).isEqualTo(ids(JobQueries.jobInfo(req, s, j -> auth.maySeeJob(p, j)).getJobsList()));
    return seen;
  }

  @Test
  void withoutPrivateDataEveryoneSeesEveryJob() {
    ClusterState s = queue();
    Authorizer auth = auth(null);
    assertThat(seen(auth, ALICE, JobInfoRequest.getDefaultInstance(), s)).containsExactly(1, 2);
    assertThat(seen(auth, ALICE, JobInfoRequest.newBuilder().addJobIds(2).build(), s)).containsExactly(2);
  }

  @Test
  void privateJobsAreTheOwnersCoordinatorsAndOperatorsAlone() {
    ClusterState s = queue();
    Authorizer auth = auth("jobs");
    assertThat(seen(auth, ALICE, JobInfoRequest.getDefaultInstance(), s)).containsExactly(1);
    assertThat(seen(auth, BOB, JobInfoRequest.getDefaultInstance(), s)).containsExactly(2);
    assertThat(seen(auth, CAROL, JobInfoRequest.getDefaultInstance(), s)).containsExactly(1); // accta's
    assertThat(seen(auth, ROOT, JobInfoRequest.getDefaultInstance(), s)).containsExactly(1, 2);
    // squeue -u bob: nothing; squeue -j 1,2: her own alone
    assertThat(seen(auth, ALICE, JobInfoRequest.newBuilder().addUserIds(1002).build(), s)).isEmpty();
    assertThat(seen(auth, ALICE, JobInfoRequest.newBuilder().addJobIds(1).addJobIds(2).build(), s))
        .containsExactly(1);
    // scontrol show job 2 / squeue -j 2: "slurm_load_jobs error: Invalid job id specified"
    assertThatThrownBy(() -> seen(auth, ALICE, JobInfoRequest.newBuilder().addJobIds(2).build(), s))
        .isInstanceOfSatisfying(SlurmException.class, e -> assertThat(e.error()).isEqualTo(SlurmError.INVALID_JOB_ID));
  }

  @Test
  void anotherUsersStepsAreNotShown() {
    ClusterState s = queue();
    Authorizer auth = auth("jobs");
    var mine = StepRequests.info(StepInfoRequest.newBuilder().setJobId(1).build(), s, j -> auth.maySeeJob(ALICE, j));
    var theirs = StepRequests.info(StepInfoRequest.newBuilder().setJobId(2).build(), s, j -> auth.maySeeJob(ALICE, j));
    var all = StepRequests.info(StepInfoRequest.getDefaultInstance(), s, j -> auth.maySeeJob(ALICE, j));
    assertThat(mine.getStepsList()).isNotEmpty();
    assertThat(theirs.getStepsList()).isEmpty(); // scontrol: "Job step 2. not found"
    assertThat(all.getStepsList()).allMatch(st -> st.getJobId() == 1);
    var byRoot = StepRequests.info(StepInfoRequest.newBuilder().setJobId(2).build(), s, j -> auth.maySeeJob(ROOT, j));
    assertThat(byRoot.getStepsList()).isNotEmpty();
  }

  @Test
  void nodesAndPartitionsAreOperatorsAloneWhenPrivate() {
    Authorizer open = auth("jobs");
    Authorizer closed = auth("nodes,partitions");
    assertThat(open.maySeeNodes(ALICE)).isTrue();
    assertThat(open.maySeePartitions(ALICE)).isTrue();
    assertThat(closed.maySeeNodes(ALICE)).isFalse();
    assertThat(closed.maySeePartitions(ALICE)).isFalse();
    assertThat(closed.maySeeNodes(ROOT)).isTrue();
    assertThat(closed.maySeePartitions(new Peer(SLURM_UID, SLURM_UID, "slurm", null))).isTrue();
    assertThat(auth("nodes").maySeePartitions(ALICE)).isTrue();
  }

  @Test
  void privateReservationsAreThoseTheUserMayUse() {
    Authorizer auth = auth("reservations");
    ReservationInfo forRoot = ReservationInfo.newBuilder().setName("r1").addUsers("root").build();
    ReservationInfo forAlice = ReservationInfo.newBuilder().setName("r2").addUsers("alice").build();
    ReservationInfo forAcctB = ReservationInfo.newBuilder().setName("r3").addAccounts("acctb").build();
    assertThat(auth.maySeeReservation(ALICE, forRoot)).isFalse();
    assertThat(auth.maySeeReservation(ALICE, forAlice)).isTrue();
    assertThat(auth.maySeeReservation(BOB, forAlice)).isFalse();
    assertThat(auth.maySeeReservation(BOB, forAcctB)).isTrue();
    assertThat(auth.maySeeReservation(ALICE, forAcctB)).isFalse();
    assertThat(auth.maySeeReservation(ROOT, forAlice)).isTrue();
    assertThat(auth("jobs").maySeeReservation(BOB, forAlice)).isTrue();
  }

  @Test
  void privateUsageShowsAUserItsOwnRowsAndACoordinatorItsAccounts() {
    ClusterState s = queue();
    ShareTree shares = ShareTree.build(tree, Map.of(), false, s, 200);
    ShareRequests open = new ShareRequests(() -> shares, auth("jobs"));
    ShareRequests closed = new ShareRequests(() -> shares, auth("usage"));
    ShareInfoRequest all = ShareInfoRequest.getDefaultInstance();
    assertThat(rows(open.answer(ALICE, all).getRowsList())).containsExactly("root/", "accta/",
        "accta/alice", "accta/carol", "acctb/", "acctb/bob");
    assertThat(rows(closed.answer(ALICE, all).getRowsList())).containsExactly("accta/alice");
    assertThat(rows(closed.answer(CAROL, all).getRowsList())).containsExactly("accta/", "accta/alice", "accta/carol");
    assertThat(closed.answer(ROOT, all).getRowsList()).hasSameSizeAs(open.answer(ALICE, all).getRowsList());
  }

  private static List<String> rows(List<ShareRow> rows) {
    return rows.stream().map(r -> r.getAccount() + "/" + r.getUser()).toList();
  }
}
