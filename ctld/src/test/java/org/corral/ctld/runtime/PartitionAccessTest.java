package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.PartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AllowGroups, RootOnly and Hidden, as Slurm 22.05 applies them to users and administrators. */
class PartitionAccessTest {
  @TempDir
  Path dir;

  private PartitionAccess access() throws Exception {
    Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/h:/bin/sh\n"
        + "bob:x:1001:1001::/h:/bin/sh\n");
    Files.writeString(dir.resolve("group"), "root:x:0:\nalice:x:1000:\nbob:x:1001:\nphysics:x:2000:bob\n");
    UserDirectory users = new UserDirectory(dir.resolve("passwd"), dir.resolve("group"), List.of(), Clock.systemUTC());
    return new PartitionAccess(new Authorizer(0), users);
  }

  private static final Peer ALICE = new Peer(1000, 1000, "alice", null);
  private static final Peer BOB = new Peer(1001, 1001, "bob", null);
  private static final Peer ROOT = new Peer(0, 0, "root", null);

  @Test
  void groupsRootOnlyAndHidden() throws Exception {
    PartitionAccess a = access();
    PartitionInfo physics = PartitionInfo.newBuilder().setName("p").setAllowGroups("physics,alice2").build();
    assertThat(a.check(BOB, physics)).isEqualTo(SlurmError.SUCCESS); // a member
    assertThat(a.check(ALICE, physics)).isEqualTo(SlurmError.JOB_MISSING_REQUIRED_PARTITION_GROUP);
    assertThat(a.check(ROOT, physics)).isEqualTo(SlurmError.SUCCESS);
    assertThat(a.check(ALICE, PartitionInfo.newBuilder().setAllowGroups("alice").build()))
        .isEqualTo(SlurmError.SUCCESS); // login group
    PartitionInfo rootOnly = PartitionInfo.newBuilder().setRootOnly(true).setAllowGroups("ALL").build();
    assertThat(a.check(ALICE, rootOnly)).isEqualTo(SlurmError.ACCESS_DENIED);
    assertThat(a.visible(ALICE, rootOnly)).isTrue();
    assertThat(a.visible(ALICE, physics)).isFalse();
    assertThat(a.visible(ALICE, PartitionInfo.newBuilder().setHidden(true).build())).isFalse();
    assertThat(a.visible(ROOT, PartitionInfo.newBuilder().setHidden(true).build())).isTrue();
  }
}
