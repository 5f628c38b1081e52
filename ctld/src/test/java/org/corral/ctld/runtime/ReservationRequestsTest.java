package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.corral.common.SlurmError;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.ReservationInfo;
import org.corral.protocol.msg.ReservationRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users= and Accounts= of {@code scontrol create|update reservation}, {@code +=} and {@code -=}
 * included, with the outcomes the reference gave (AccountingStorageEnforce=associations; root
 * and alice have associations, bob and slurm exist without one).
 */
class ReservationRequestsTest {
  private static final Peer ROOT = new Peer(0, 0, "root", null);
  private static final AssocTree TREE = new AssocTree(AssocSnapshot.newBuilder()
      .addAssocs(AcctAssoc.newBuilder().setId(1).setCluster("c").setAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(2).setCluster("c").setAccount("physics").setParentAccount("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(3).setCluster("c").setAccount("root").setUser("root"))
      .addAssocs(AcctAssoc.newBuilder().setId(4).setCluster("c").setAccount("physics").setUser("alice"))
      .build(), "c");

  @TempDir
  Path dir;

  /** A reservation holding {@code users}/{@code accounts}, then {@code update}: the outcome. */
  private record Case(String users, String accounts, Map<String, String> update, String expected) {}

  private ReservationRequests requests() throws Exception {
    Files.writeString(dir.resolve("passwd"), """
        root:x:0:0::/root:/bin/sh
        slurm:x:64030:64030::/var/lib/slurm:/bin/sh
        alice:x:1000:1000::/home/alice:/bin/sh
        bob:x:1001:1001::/home/bob:/bin/sh
        """);
    Files.writeString(dir.resolve("group"), "root:x:0:\n");
    UserDirectory users = new UserDirectory(dir.resolve("passwd"), dir.resolve("group"), List.of(),
        Clock.systemUTC());
    return new ReservationRequests(new Authorizer(64030), Clock.fixed(Instant.ofEpochSecond(1000), ZoneOffset.UTC),
        users, new AssocPolicy(new AssociationCache(TREE, Set.of("associations"))));
  }

  /** "users|accounts" after the request, or the error's message. */
  private static String outcome(ReservationRequests rr, ClusterState s, boolean update, Map<String, String> fields) {
    ReservationRequest req = ReservationRequest.newBuilder().setUpdate(update).putAllFields(fields)
        .putFields("reservationname", "r").build();
    try {
      rr.checkNames(ROOT, req);
      Decision<String> d = update ? rr.update(ROOT, req, s) : rr.create(ROOT, req, s);
      for (Command c : d.commands()) {
        s = StateMachine.apply(s, c);
      }
      ReservationInfo r = s.reservations().named("r").orElseThrow();
      return String.join(",", r.getUsersList()) + "|" + String.join(",", r.getAccountsList());
    } catch (SlurmException e) {
      return e.error().message();
    }
  }

  private static final String NO_USER = SlurmError.USER_ID_MISSING.message();
  private static final String NO_ACCOUNT = SlurmError.INVALID_ACCOUNT.message();
  private static final String EMPTY = SlurmError.RESERVATION_EMPTY.message();

  @Test
  void usersAndAccountsAddedAndTakenOutAsTheReferenceDid() throws Exception {
    List<Case> cases = List.of(
        new Case("root", "", Map.of("users+", "alice"), "root,alice|"),
        new Case("root", "", Map.of("users+", "root"), "root|"),
        new Case("root", "", Map.of("users+", "bob"), NO_ACCOUNT),
        new Case("root", "", Map.of("users+", "nosuch"), NO_USER),
        new Case("root", "", Map.of("users+", "-alice"), NO_USER),
        new Case("root", "", Map.of("users-", "bob"), "root|"),
        new Case("root", "", Map.of("users-", "nosuch"), NO_USER),
        new Case("root", "", Map.of("users-", "root"), EMPTY),
        new Case("root", "", Map.of("users", "root,bob"), NO_ACCOUNT),
        new Case("root", "", Map.of("accounts+", "root,root"), "root|root"),
        new Case("root", "", Map.of("accounts+", "nosuch"), NO_ACCOUNT),
        new Case("root", "", Map.of("accounts-", "nosuch"), NO_ACCOUNT),
        new Case("root", "", Map.of("accounts-", "root"), "root|-root"),
        new Case("root", "root", Map.of("accounts-", "root"), "root|"),
        new Case("-root", "-root", Map.of("users+", "root"), "-root|-root"),
        new Case("-root", "-root", Map.of("users-", "root"), "|-root"),
        new Case("", "-root", Map.of("accounts-", "root"), EMPTY),
        new Case("", "-root", Map.of("accounts+", "root"), "|root"),
        new Case("", "-root", Map.of("accounts+", "-root"), NO_ACCOUNT));
    ReservationRequests rr = requests();
    for (Case c : cases) {
      ClusterState s = TestStates.cluster(2, 8, 4000);
      Map<String, String> made = new java.util.HashMap<>(Map.of("nodes", "n1", "duration", "60"));
      if (!c.users().isEmpty()) {
        made.put("users", c.users());
      }
      if (!c.accounts().isEmpty()) {
        made.put("accounts", c.accounts());
      }
      ReservationRequest create = ReservationRequest.newBuilder().putAllFields(made)
          .putFields("reservationname", "r").build();
      for (Command cmd : rr.create(ROOT, create, s).commands()) {
        s = StateMachine.apply(s, cmd);
      }
      assertThat(outcome(rr, s, true, c.update())).as(c.toString()).isEqualTo(c.expected());
    }
  }

  @Test
  void aCreateTakesMinusAsExclusionsAndRefusesPlusAndUsersWithoutAnAssociation() throws Exception {
    ReservationRequests rr = requests();
    ClusterState s = TestStates.cluster(2, 8, 4000);
    Map<String, String> base = Map.of("nodes", "n1", "duration", "60");
    record Create(Map<String, String> given, String expected) {}
    for (Create c : List.of(
        new Create(Map.of("users-", "root"), "-root|"),
        new Create(Map.of("accounts-", "root"), "|-root"),
        new Create(Map.of("users", "-root"), "-root|"),
        new Create(Map.of("users+", "root"), NO_USER),
        new Create(Map.of("accounts+", "root"), NO_ACCOUNT),
        new Create(Map.of("users", "bob"), NO_ACCOUNT),
        new Create(Map.of("users", "-bob"), NO_ACCOUNT),
        new Create(Map.of("users", "-nosuch"), NO_USER),
        new Create(Map.of("users", "root,-bob"), NO_USER),
        new Create(Map.of("accounts", "nosuch"), NO_ACCOUNT))) {
      Map<String, String> fields = new java.util.HashMap<>(base);
      fields.putAll(c.given());
      assertThat(outcome(rr, s, false, fields)).as(c.toString()).isEqualTo(c.expected());
    }
  }

  @Test
  void namedNodesRunningAJobIntoTheWindowAreBusyUnlessIgnoreJobs() throws Exception {
    ReservationRequests rr = requests();
    ClusterState s = TestStates.submit(TestStates.cluster(2, 8, 4000), 1, TestStates.spec().build(), 900);
    s = StateMachine.apply(s, new Command.StartJob(1, 900, List.of(org.corral.protocol.msg.NodeAllocation.newBuilder()
        .setNode("n1").setCpus(1).setMemMb(100).build())));
    Map<String, String> n1 = Map.of("nodes", "n1", "duration", "60", "users", "root");
    assertThat(outcome(rr, s, false, n1)).isEqualTo(SlurmError.NODES_BUSY.message());
    Map<String, String> ignoring = new java.util.HashMap<>(n1);
    ignoring.put("flags", "IGNORE_JOBS");
    assertThat(outcome(rr, s, false, ignoring)).isEqualTo("root|");
  }

  @Test
  void purgeCompTakesItsTimeAndShowsItAsTheReferenceDid() throws Exception {
    ReservationRequests rr = requests();
    record Flags(String create, String update, String shown, long seconds) {}
    for (Flags c : List.of(
        new Flags("PURGE_COMP", null, "SPEC_NODES,PURGE_COMP=00:05:00", 300),
        new Flags("purge_comp=1,MAGNETIC,DAILY", null, "DAILY,SPEC_NODES,PURGE_COMP=00:01:00,MAGNETIC", 60),
        new Flags("PURGE_COMP=0", null, "SPEC_NODES,PURGE_COMP", 0),
        new Flags("PURGE_COMP=1:30:00", null, "SPEC_NODES,PURGE_COMP=01:30:00", 5400),
        new Flags("PURGE_COMP=xyz,OVERLAP", null, "OVERLAP,SPEC_NODES,PURGE_COMP=00:05:00", 300),
        new Flags("PURGE_COMP", "-PURGE_COMP", "SPEC_NODES", 0),
        new Flags("PURGE_COMP=0", "PURGE_COMP=2", "SPEC_NODES,PURGE_COMP=00:02:00", 120),
        new Flags("PURGE_COMP=2", "PURGE_COMP", "SPEC_NODES,PURGE_COMP=00:02:00", 120),
        new Flags("MAINT", "PURGE_COMP", "MAINT,SPEC_NODES,PURGE_COMP=00:05:00", 300))) {
      ClusterState s = TestStates.cluster(2, 8, 4000);
      ReservationRequest create = ReservationRequest.newBuilder().putAllFields(Map.of("nodes", "n1",
          "duration", "60", "users", "root", "flags", c.create())).putFields("reservationname", "r").build();
      for (Command cmd : rr.create(ROOT, create, s).commands()) {
        s = StateMachine.apply(s, cmd);
      }
      if (c.update() != null) {
        ReservationRequest update = ReservationRequest.newBuilder().setUpdate(true)
            .putFields("reservationname", "r").putFields("flags", c.update()).build();
        for (Command cmd : rr.update(ROOT, update, s).commands()) {
          s = StateMachine.apply(s, cmd);
        }
      }
      ReservationInfo r = s.reservations().named("r").orElseThrow();
      assertThat(org.corral.common.ReservationFlags.shown(r.getFlagsList(), r.getPurgeCompTime()))
          .as(c.toString()).isEqualTo(c.shown());
      assertThat(r.getPurgeCompTime()).as(c.toString()).isEqualTo(c.seconds());
    }
  }
}
