package org.corral.dbd.assoc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctTxn;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.TxnQueryRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The association tables in every supported database (one test class, run once per storage). */
class AssocStoreTest {
  static Stream<Storage> storages() {
    return TestDatabases.available().stream();
  }

  static final AssocRules.Actor ROOT = AssocRules.Actor.superUser("root");

  static AcctChange account(String name, String parent) {
    return AcctChange.newBuilder().setPutAccount(AcctAccount.newBuilder().setName(name).setDescription(name)
        .setOrganization(parent)).build();
  }

  static AcctChange acctAssoc(String cluster, String name, String parent) {
    return AcctChange.newBuilder().setPutAssoc(AcctAssoc.newBuilder().setCluster(cluster).setAccount(name)
        .setParentAccount(parent)).build();
  }

  static AcctChange user(String name, String def, int level) {
    return AcctChange.newBuilder().setPutUser(AcctUser.newBuilder().setName(name).setDefaultAccount(def)
        .setAdminLevel(level)).build();
  }

  static AcctChange userAssoc(String cluster, String account, String user) {
    return AcctChange.newBuilder().setPutAssoc(AcctAssoc.newBuilder().setCluster(cluster).setAccount(account)
        .setUser(user)).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void eachChangeIsATransactionWithItsActor(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      AssocStore store = new AssocStore(db);
      store.bootstrap("c1");
      int bootstrap = store.transactions(TxnQueryRequest.getDefaultInstance()).size();
      store.apply(ROOT, List.of(account("physics", "root"), acctAssoc("c1", "physics", "root"),
          user("alice", "physics", 1), userAssoc("c1", "physics", "alice")), false);
      store.apply(ROOT, List.of(account("ghost", "root")), true); // checked only: no transaction
      store.apply(AssocRules.Actor.superUser("admin"), List.of(user("alice", "physics", 3),
          AcctChange.newBuilder().setDeleteUser("alice").build()), false);
      List<AcctTxn> all = store.transactions(TxnQueryRequest.getDefaultInstance());
      assertThat(all.subList(bootstrap, all.size()))
          .extracting(t -> t.getAction() + "|" + t.getActor() + "|" + t.getWhere())
          .containsExactly("Add Accounts|root|physics", "Add Associations|root|cluster='c1' acct='physics'",
              "Add Users|root|alice", "Add Associations|root|cluster='c1' acct='physics' user='alice'",
              "Modify Users|admin|alice", "Remove Users|admin|(name='alice')");
      assertThat(store.transactions(TxnQueryRequest.newBuilder().addUsers("alice").build()))
          .extracting(AcctTxn::getAction)
          .containsExactly("Add Users", "Add Associations", "Modify Users", "Remove Users");
      assertThat(store.transactions(TxnQueryRequest.newBuilder().addActors("admin").build())).hasSize(2);
      assertThat(store.transactions(TxnQueryRequest.newBuilder().setStart(4_000_000_000L).build())).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void bootstrapBuildsTheRootTreeOnceAndChangesPersist(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      AssocStore store = new AssocStore(db);
      store.bootstrap("c1");
      store.bootstrap("c1"); // a restart adds nothing
      AssocSnapshot s = store.snapshot("");
      assertThat(s.getQosList()).extracting(q -> q.getName() + "#" + q.getId()).containsExactly("normal#1");
      assertThat(s.getAssocsList()).extracting(a -> a.getAccount() + "/" + a.getUser() + "#" + a.getId())
          .containsExactly("root/#1", "root/root#2");
      assertThat(s.getUsers(0).getAdminLevel()).isEqualTo(AssocRules.ADMINISTRATOR);

      store.apply(ROOT, List.of(account("physics", "root"), acctAssoc("c1", "physics", "root"),
          user("alice", "physics", 1), userAssoc("c1", "physics", "alice"),
          AcctChange.newBuilder().setAddCoord(AcctCoord.newBuilder().setUser("alice").setAccount("physics")).build()),
          false);
      // a check only rolls back
      store.apply(ROOT, List.of(account("ghost", "root")), true);
      try (Database again = fresh.open()) {
        AssocSnapshot t = new AssocStore(again).snapshot("c1");
        assertThat(t.getAccountsList()).extracting(AcctAccount::getName).containsExactly("physics", "root");
        assertThat(t.getAssocsList()).hasSize(4);
        assertThat(t.getUsersList()).filteredOn(u -> u.getName().equals("alice")).singleElement()
            .satisfies(u -> assertThat(u.getCoordAccountsList()).containsExactly("physics"));
      }
      // limits replace the row; removing the account takes its associations and coordinators
      AcctAssoc withLimit = store.snapshot("c1").getAssocsList().stream()
          .filter(a -> a.getUser().equals("alice")).findFirst().orElseThrow().toBuilder()
          .setLimits(AcctLimits.newBuilder().setMaxJobs(10)).build();
      store.apply(ROOT, List.of(AcctChange.newBuilder().setPutAssoc(withLimit).build()), false);
      assertThat(store.snapshot("c1").getAssocsList()).filteredOn(a -> a.getUser().equals("alice"))
          .singleElement().satisfies(a -> assertThat(a.getLimits().getMaxJobs()).isEqualTo(10));
      store.apply(ROOT, List.of(AcctChange.newBuilder().setDeleteAccount("physics").build()), false);
      AssocSnapshot u = store.snapshot("c1");
      assertThat(u.getAssocsList()).hasSize(2);
      assertThat(u.getUsersList()).allSatisfy(x -> assertThat(x.getCoordAccountsList()).isEmpty());
    }
  }

  static AcctChange wckey(String cluster, String name, String user) {
    return AcctChange.newBuilder().setPutWckey(AcctWckey.newBuilder().setCluster(cluster).setName(name)
        .setUser(user)).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void wckeysAreKeptPerUserAndGoWithTheUser(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      AssocStore store = new AssocStore(db);
      store.bootstrap("c1");
      store.apply(ROOT, List.of(user("alice", "root", 1), userAssoc("c1", "root", "alice"),
          wckey("c1", "wk2", "alice"), wckey("c1", "wk1", "alice"), wckey("c1", "wk1", "alice"),
          user("bob", "root", 1), wckey("c1", "wk1", "bob")), false);
      try (Database again = fresh.open()) {
        assertThat(new AssocStore(again).snapshot("c1").getWckeysList())
            .extracting(w -> w.getName() + "/" + w.getUser() + "#" + w.getId())
            .containsExactly("wk1/alice#2", "wk1/bob#3", "wk2/alice#1");
      }
      assertThat(store.snapshot("other").getWckeysList()).isEmpty();
      // an unknown user or cluster is refused, and the request changes nothing
      assertThatThrownBy(() -> store.apply(ROOT, List.of(wckey("c1", "wk3", "alice"), wckey("c1", "wk4", "carol")),
          false)).isInstanceOf(AcctException.class);
      assertThatThrownBy(() -> store.apply(ROOT, List.of(wckey("nope", "wk3", "alice")), false))
          .isInstanceOf(AcctException.class);
      // a plain user may not give itself one
      assertThatThrownBy(() -> store.apply(store.actor("bob"),
          List.of(wckey("c1", "wk9", "bob")), false)).isInstanceOf(AcctException.class);
      store.apply(ROOT, List.of(AcctChange.newBuilder().setDeleteWckey(AcctWckey.newBuilder().setCluster("c1")
          .setName("wk2").setUser("alice")).build(), AcctChange.newBuilder().setDeleteUser("bob").build()), false);
      assertThat(store.snapshot("c1").getWckeysList()).extracting(w -> w.getName() + "/" + w.getUser())
          .containsExactly("wk1/alice");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void namesWithQuotesAndSemicolonsAreStoredVerbatim(Storage storage) throws Exception {
    String evil = "x'; DROP TABLE acct_assoc; --";
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      AssocStore store = new AssocStore(db);
      store.bootstrap("c1");
      store.apply(ROOT, List.of(account(evil, "root"), acctAssoc("c1", evil, "root"),
          user("o\"brien;", evil, 1), userAssoc("c1", evil, "o\"brien;")), false);
      AssocSnapshot s = store.snapshot("c1");
      assertThat(s.getAccountsList()).extracting(AcctAccount::getName).contains(evil);
      assertThat(s.getAssocsList()).extracting(AcctAssoc::getUser).contains("o\"brien;");
      assertThat(s.getAssocsList()).hasSize(4);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storages")
  void aRefusedRequestChangesNothing(Storage storage) throws Exception {
    try (TestDatabases.Fresh fresh = TestDatabases.create(storage); Database db = fresh.open()) {
      AssocStore store = new AssocStore(db);
      store.bootstrap("c1");
      // the second change names a parent that does not exist: the first is not kept either
      assertThatThrownBy(() -> store.apply(ROOT, List.of(account("a", "root"), acctAssoc("c1", "a", "nosuch")), false))
          .isInstanceOf(AcctException.class).hasMessageContaining("nosuch");
      assertThat(store.snapshot("c1").getAccountsList()).extracting(AcctAccount::getName).containsExactly("root");
      // an account may not be put under itself
      store.apply(ROOT, List.of(account("a", "root"), acctAssoc("c1", "a", "root"), account("b", "a"),
          acctAssoc("c1", "b", "a")), false);
      assertThatThrownBy(() -> store.apply(ROOT, List.of(acctAssoc("c1", "a", "b")), false))
          .isInstanceOf(AcctException.class);
    }
  }
}
