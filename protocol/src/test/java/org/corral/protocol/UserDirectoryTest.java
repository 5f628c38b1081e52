package org.corral.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserDirectoryTest {
  @TempDir Path dir;
  private Path passwd;
  private Path group;
  private UserDirectory users;

  @BeforeEach
  void files() throws IOException {
    passwd = dir.resolve("passwd");
    group = dir.resolve("group");
    Files.writeString(passwd, """
        root:x:0:0:root:/root:/bin/bash
        # a comment
        alice:x:1500:1600:Alice:/home/alice:/bin/sh
        broken line
        """);
    Files.writeString(group, """
        root:x:0:
        physics:x:1600:alice
        """);
    users = new UserDirectory(passwd, group, List.of(), Clock.systemUTC());
  }

  @Test
  void mapsUsersBothWays() {
    assertThat(users.userName(1500)).contains("alice");
    assertThat(users.uid("alice")).hasValue(1500);
    assertThat(users.primaryGid("alice")).hasValue(1600);
    assertThat(users.uid("nobody-here")).isEmpty();
    assertThat(users.userName(4242)).isEmpty();
  }

  @Test
  void mapsGroupsBothWays() {
    assertThat(users.groupName(1600)).contains("physics");
    assertThat(users.gid("physics")).hasValue(1600);
    assertThat(users.gid("alice")).isEmpty();
  }

  @Test
  void ignoresKeysThatCouldMisleadALookup() {
    assertThat(users.uid("alice:x")).isEmpty();
    assertThat(users.uid("")).isEmpty();
    assertThat(users.uid("-s")).isEmpty();
    assertThat(users.userName(-1)).isEmpty();
  }

  @Test
  void seesUsersAddedAfterItWasFirstAsked() throws IOException {
    assertThat(users.uid("bob")).isEmpty();
    Files.writeString(passwd, "bob:x:1501:1501::/home/bob:/bin/sh\n",
        java.nio.file.StandardOpenOption.APPEND);
    Files.setLastModifiedTime(passwd, FileTime.from(Instant.now().plusSeconds(5)));
    assertThat(users.uid("bob")).hasValue(1501);
  }

  @Test
  void asksGetentForUsersNotInTheFiles() throws IOException {
    Path fakeGetent = dir.resolve("getent");
    Files.writeString(fakeGetent, """
        #!/bin/sh
        [ "$1" = passwd ] && [ "$2" = ldapuser ] && echo 'ldapuser:*:7000:7001::/home/l:/bin/sh'
        """);
    fakeGetent.toFile().setExecutable(true);
    UserDirectory withGetent =
        new UserDirectory(passwd, group, List.of(fakeGetent.toString()), Clock.systemUTC());
    assertThat(withGetent.uid("ldapuser")).hasValue(7000);
    assertThat(withGetent.primaryGid("ldapuser")).hasValue(7001);
    assertThat(withGetent.uid("stranger")).isEmpty();
  }

  @Test
  void systemDirectoryKnowsRoot() {
    assertThat(UserDirectory.system().userName(0)).contains("root");
    assertThat(UserDirectory.system().uid("root")).hasValue(0);
    assertThat(UserDirectory.system().gid("root")).hasValue(0);
  }
}
