package org.corral.dbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.config.PrivateData;
import org.corral.dbd.assoc.AssocService;
import org.corral.dbd.assoc.AssocStore;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.JobStore;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctEvent;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.AssocUsage;
import org.corral.protocol.msg.JobQueryRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.UsageReportReply;
import org.junit.jupiter.api.Test;

/**
 * slurmdbd.conf's PrivateData as Slurm 22.05's slurmdbd answers (recorded on a reference):
 * alice (accta) and bob (acctb) plain users, carol coordinator of accta, olga an Operator.
 */
class PrivateViewTest {
  private static final long NOW = 100_000;
  private static final Peer ROOT = new Peer(0, 0, "root", null);
  private static final Peer ALICE = new Peer(1001, 1001, "alice", null);
  private static final Peer BOB = new Peer(1002, 1002, "bob", null);
  private static final Peer CAROL = new Peer(1003, 1003, "carol", null);
  private static final Peer OLGA = new Peer(1004, 1004, "olga", null);

  private static AcctChange account(String name) {
    return AcctChange.newBuilder().setPutAccount(AcctAccount.newBuilder().setName(name).setDescription(name)).build();
  }

  private static AcctChange assoc(String account, String parent, String user) {
    return AcctChange.newBuilder().setPutAssoc(AcctAssoc.newBuilder().setCluster("c").setAccount(account)
        .setParentAccount(parent).setUser(user)).build();
  }

  private static AcctChange user(String name, String account, int level) {
    return AcctChange.newBuilder().setPutUser(AcctUser.newBuilder().setName(name).setDefaultAccount(account)
        .setAdminLevel(level)).build();
  }

  private static AssocService accounting(Database db) throws Exception {
    AssocStore store = new AssocStore(db);
    store.bootstrap("c");
    AssocService service = new AssocService(store, 450, UserDirectory.system());
    var r = service.update(ROOT, AcctUpdateRequest.newBuilder().addAllChanges(List.of(
        account("accta"), assoc("accta", "root", ""), account("acctb"), assoc("acctb", "root", ""),
        user("alice", "accta", 1), assoc("accta", "", "alice"), user("carol", "accta", 1), assoc("accta", "", "carol"),
        user("bob", "acctb", 1), assoc("acctb", "", "bob"), user("olga", "acctb", 2), assoc("acctb", "", "olga"),
        AcctChange.newBuilder().setAddCoord(AcctCoord.newBuilder().setUser("carol").setAccount("accta")).build()))
        .build());
    assertThat(r.getErrorCode()).as(r.getErrorMessage()).isZero();
    return service;
  }

  private static JobQuery jobs(Database db) throws Exception {
    JobStore store = new JobStore(db);
    List<AcctEvent> events = new ArrayList<>();
    int[][] rows = {{1, 1001}, {2, 1002}, {3, 1003}};
    String[] accounts = {"accta", "acctb", "accta"};
    for (int i = 0; i < rows.length; i++) {
      events.add(AcctEvent.newBuilder().setEventId(i + 1).setJob(AcctJob.newBuilder().setJobId(rows[i][0])
          .setUserId(rows[i][1]).setAccount(accounts[i]).setState(JobState.COMPLETED).setSubmitTime(10)
          .setEligibleTime(10).setStartTime(20).setEndTime(30)).build());
    }
    store.store("c", events);
    return new JobQuery(store, "c");
  }

  private static List<Integer> sacct(JobQuery q, PrivateView view, Peer p, JobQueryRequest req) throws Exception {
    PrivateView.Viewer v = view.viewer(p);
    return q.run(req, p.uid(), p.uid() == 0, NOW, view.jobsLimited(v) ? v : null).getJobsList().stream()
        .map(AcctJob::getJobId).toList();
  }

  @Test
  void sacctShowsAPlainUserItsOwnJobsAndACoordinatorItsAccounts() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      AssocService assoc = accounting(db);
      JobQuery q = jobs(db);
      PrivateView open = new PrivateView(PrivateData.NONE, assoc);
      PrivateView closed = new PrivateView(PrivateData.parse("jobs,users,accounts,usage,events"), assoc);
      JobQueryRequest all = JobQueryRequest.newBuilder().setAllUsers(true).build();
      assertThat(sacct(q, open, ALICE, all)).containsExactly(1, 2, 3);
      assertThat(sacct(q, closed, ALICE, all)).containsExactly(1);
      assertThat(sacct(q, closed, ALICE, JobQueryRequest.newBuilder().addJobIds("2").build())).isEmpty();
      assertThat(sacct(q, closed, ALICE, JobQueryRequest.newBuilder().addUserIds(1002).build())).isEmpty();
      assertThat(sacct(q, closed, CAROL, all)).containsExactly(1, 3); // accta's
      assertThat(sacct(q, closed, OLGA, all)).containsExactly(1, 2, 3); // an Operator
      assertThat(sacct(q, closed, ROOT, all)).containsExactly(1, 2, 3);
    }
  }

  private static List<String> assocs(AssocSnapshot s) {
    return s.getAssocsList().stream().map(a -> a.getAccount() + "/" + a.getUser()).sorted().toList();
  }

  @Test
  void sacctmgrShowsUsersAssociationsAndAccountsAsSlurmDoes() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      AssocService assoc = accounting(db);
      PrivateView view = new PrivateView(PrivateData.parse("users,accounts"), assoc);
      AssocSnapshot all = assoc.snapshot(ROOT, org.corral.protocol.msg.AssocSnapshotRequest.getDefaultInstance())
          .getAssocSnapshot();
      AssocSnapshot alice = view.snapshot(all, view.viewer(ALICE));
      assertThat(alice.getUsersList()).extracting(AcctUser::getName).containsExactly("alice");
      assertThat(assocs(alice)).containsExactly("accta/", "accta/alice", "root/");
      assertThat(alice.getAccountsList()).isEmpty();
      assertThat(alice.getAccountsDenied()).isTrue(); // "Access/permission denied ... Problem with query."
      AssocSnapshot carol = view.snapshot(all, view.viewer(CAROL));
      assertThat(carol.getUsersList()).extracting(AcctUser::getName).containsExactly("carol"); // only herself
      assertThat(assocs(carol)).containsExactly("accta/", "accta/alice", "accta/carol", "root/");
      assertThat(carol.getAccountsList()).extracting(AcctAccount::getName).containsExactly("accta");
      assertThat(carol.getAccountsDenied()).isFalse();
      assertThat(view.snapshot(all, view.viewer(OLGA))).isEqualTo(all);
      assertThat(view.snapshot(all, view.viewer(Peer.daemon("slurmctld")))).isEqualTo(all);
      assertThat(new PrivateView(PrivateData.parse("jobs"), assoc).snapshot(all, view.viewer(BOB))).isEqualTo(all);
    }
  }

  @Test
  void eventsAndOthersUsageArePrivate() throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(Storage.SQLITE); Database db = fresh.open()) {
      AssocService assoc = accounting(db);
      PrivateView view = new PrivateView(PrivateData.parse("events,usage"), assoc);
      assertThat(view.eventsDenied(view.viewer(ALICE))).isTrue();
      assertThat(view.eventsDenied(view.viewer(OLGA))).isFalse();
      assertThat(new PrivateView(PrivateData.parse("jobs"), assoc).eventsDenied(view.viewer(ALICE))).isFalse();
      UsageReportReply usage = UsageReportReply.newBuilder()
          .addAssocs(AssocUsage.newBuilder().setAccount("accta").setAllocSecs(10))
          .addAssocs(AssocUsage.newBuilder().setAccount("accta").setUser("alice").setAllocSecs(4))
          .addAssocs(AssocUsage.newBuilder().setAccount("accta").setUser("carol").setAllocSecs(6))
          .addAssocs(AssocUsage.newBuilder().setAccount("acctb").setUser("bob").setAllocSecs(5)).build();
      assertThat(view.report(usage, view.viewer(ALICE)).getAssocsList()).extracting(AssocUsage::getUser)
          .containsExactly("alice");
      assertThat(view.report(usage, view.viewer(CAROL)).getAssocsList()).extracting(AssocUsage::getUser)
          .containsExactly("", "alice", "carol");
      assertThat(view.report(usage, view.viewer(ROOT))).isEqualTo(usage);
    }
  }
}
