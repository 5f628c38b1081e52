package org.corral.dbd.assoc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.dbd.config.DbdConfig.Storage;
import org.corral.dbd.storage.Database;
import org.corral.dbd.storage.TestDatabases;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctCoord;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUpdateRequest;
import org.corral.protocol.msg.AssocSnapshotRequest;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may change what, through the service as sacctmgr reaches it: root, an Administrator, an
 * Operator, a coordinator of physics, and a plain user, each trying the same changes.
 */
class AssocPermissionsTest {
  @TempDir
  Path tmp;
  TestDatabases.Fresh fresh;
  Database db;
  AssocService service;

  static final int SLURM = 64030;

  @BeforeEach
  void setUp() throws Exception {
    fresh = TestDatabases.create(Storage.SQLITE);
    db = fresh.open();
    AssocStore store = new AssocStore(db);
    store.bootstrap("c1");
    store.apply(AssocRules.Actor.superUser("root"), List.of(
        AssocStoreTest.account("physics", "root"), AssocStoreTest.acctAssoc("c1", "physics", "root"),
        AssocStoreTest.account("chem", "root"), AssocStoreTest.acctAssoc("c1", "chem", "root"),
        AssocStoreTest.user("adam", "physics", AssocRules.ADMINISTRATOR),
        AssocStoreTest.user("otto", "physics", AssocRules.OPERATOR),
        AssocStoreTest.user("cora", "physics", AssocRules.NONE),
        AssocStoreTest.user("pete", "physics", AssocRules.NONE),
        AssocStoreTest.userAssoc("c1", "physics", "pete"),
        AssocStoreTest.userAssoc("c1", "chem", "pete"),
        AcctChange.newBuilder().setAddCoord(AcctCoord.newBuilder().setUser("cora").setAccount("physics")).build()),
        false);
    Path passwd = tmp.resolve("passwd");
    Files.writeString(passwd, "root:x:0:0::/root:/bin/sh\nadam:x:1001:1001::/:/bin/sh\notto:x:1002:1002::/:/bin/sh\n"
        + "cora:x:1003:1003::/:/bin/sh\npete:x:1004:1004::/:/bin/sh\nslurm:x:64030:64030::/:/bin/sh\n");
    Path group = tmp.resolve("group");
    Files.writeString(group, "");
    service = new AssocService(store, SLURM, new UserDirectory(passwd, group, List.of(), java.time.Clock.systemUTC()));
  }

  @AfterEach
  void tearDown() throws Exception {
    db.close();
    fresh.close();
  }

  static final Map<String, Integer> UIDS = Map.of("root", 0, "slurm", SLURM, "adam", 1001, "otto", 1002,
      "cora", 1003, "pete", 1004);

  private boolean allowed(String who, AcctChange ch) throws Exception {
    Response r = service.update(new Peer(UIDS.get(who), UIDS.get(who), null, null),
        AcctUpdateRequest.newBuilder().addChanges(ch).setCheckOnly(true).build());
    if (r.getErrorCode() != 0) {
      assertThat(r.getErrorCode()).as(who + " " + ch + r.getErrorMessage()).isEqualTo(SlurmError.ACCESS_DENIED.code());
      assertThat(r.getErrorMessage()).isEqualTo("Access/permission denied");
    }
    return r.getErrorCode() == 0;
  }

  private void expect(AcctChange ch, String... may) throws Exception {
    for (String who : List.of("root", "slurm", "adam", "otto", "cora", "pete")) {
      assertThat(allowed(who, ch)).as(who + " on " + ch.getChangeCase()).isEqualTo(List.of(may).contains(who));
    }
  }

  @Test
  void theMatrix() throws Exception {
    expect(AcctChange.newBuilder().setAddCluster(AcctCluster.newBuilder().setName("c2")).build(),
        "root", "slurm", "adam");
    expect(AcctChange.newBuilder().setPutQos(AcctQos.newBuilder().setName("high")).build(), "root", "slurm", "adam");
    // a new account under physics: the coordinator of physics too; under chem: not
    expect(AssocStoreTest.account("sub", "physics"), "root", "slurm", "adam", "otto", "cora");
    expect(AssocStoreTest.acctAssoc("c1", "physics", "root").toBuilder().setPutAssoc(AcctAssoc.newBuilder()
        .setCluster("c1").setAccount("chem").setUser("pete").setLimits(AcctLimits.newBuilder().setMaxJobs(3))).build(),
        "root", "slurm", "adam", "otto");
    expect(AcctChange.newBuilder().setPutAssoc(AcctAssoc.newBuilder().setCluster("c1").setAccount("physics")
        .setUser("pete").setLimits(AcctLimits.newBuilder().setMaxJobs(3))).build(),
        "root", "slurm", "adam", "otto", "cora");
    // AdminLevel: Administrator only by administrators, Operator also by operators, never by coordinators
    expect(AssocStoreTest.user("pete", "physics", AssocRules.ADMINISTRATOR), "root", "slurm", "adam");
    expect(AssocStoreTest.user("pete", "physics", AssocRules.OPERATOR), "root", "slurm", "adam", "otto");
    expect(AssocStoreTest.user("adam", "physics", AssocRules.NONE), "root", "slurm", "adam");
    expect(AcctChange.newBuilder().setDeleteAccount("chem").build(), "root", "slurm", "adam", "otto");
    expect(AcctChange.newBuilder().setDeleteUser("pete").build(), "root", "slurm", "adam", "otto");
    expect(AcctChange.newBuilder().setAddCoord(AcctCoord.newBuilder().setUser("pete").setAccount("chem")).build(),
        "root", "slurm", "adam", "otto");
  }

  @Test
  void everyoneMayLookAndOnlyTheControllerAmongDaemons() throws Exception {
    assertThat(service.snapshot(new Peer(1004, 1004, null, null), AssocSnapshotRequest.getDefaultInstance())
        .getAssocSnapshot().getAssocsCount()).isEqualTo(6);
    assertThat(service.snapshot(Peer.daemon("slurmctld"), AssocSnapshotRequest.newBuilder().setCluster("c1").build())
        .getErrorCode()).isZero();
    assertThat(service.snapshot(Peer.daemon("n1"), AssocSnapshotRequest.getDefaultInstance()).getErrorCode())
        .isEqualTo(SlurmError.ACCESS_DENIED.code());
    assertThat(service.update(Peer.daemon("slurmctld"), AcctUpdateRequest.getDefaultInstance()).getErrorCode())
        .isEqualTo(SlurmError.ACCESS_DENIED.code());
  }
}
