package org.corral.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.corral.protocol.ClusterKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where auth/slurm finds the cluster key, as Slurm's daemons do. */
class SackKeysTest {
  @TempDir Path dir;

  private Path conf() throws IOException {
    return Files.writeString(dir.resolve("slurm.conf"), "ClusterName=c\n");
  }

  private static SackCredentials.Claims claims() {
    return new SackCredentials.Claims(false, 1, 1, "h", "slurmctld", null);
  }

  private static byte[] digest() {
    return SackCredentials.sha256(new byte[] {1});
  }

  @Test
  void theKeyBesideSlurmConfOrTheOneSlurmSackKeyNames() throws Exception {
    Path conf = conf();
    ClusterKey.generate(dir.resolve("slurm.key"));
    Path other = Files.createDirectories(dir.resolve("keys")).resolve("cluster.key");
    ClusterKey.generate(other);
    assertThat(SackKeys.keyFile(conf, Map.of())).isEqualTo(dir.resolve("slurm.key"));
    assertThat(SackKeys.keyFile(conf, Map.of(SackKeys.KEY_ENV, other.toString())))
        .isEqualTo(other);

    SackKeys beside = SackKeys.load(conf, Map.of(), ClusterKey.NO_SLURM_USER);
    SackKeys named = SackKeys.load(conf, Map.of(SackKeys.KEY_ENV, other.toString()),
        ClusterKey.NO_SLURM_USER);
    // the checkers start before the credential is made: a daemon refuses what predates its start
    SackCredentials checkBeside = new SackCredentials(beside, Clock.systemUTC(), Duration.ofSeconds(60));
    SackCredentials checkNamed = new SackCredentials(named, Clock.systemUTC(), Duration.ofSeconds(60));
    var c = new SackCredentials(beside, Clock.systemUTC(), Duration.ofSeconds(60))
        .make(claims(), 16, digest());
    checkBeside.check(c, false, "slurmctld", 16, digest(), null);
    assertThatThrownBy(() -> checkNamed.check(c, false, "slurmctld", 16, digest(), null))
        .hasMessageContaining("MAC");
  }

  @Test
  void aKeyOthersCanReadIsRefused() throws Exception {
    Path conf = conf();
    Path key = Files.write(dir.resolve("slurm.key"), new byte[32]);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> SackKeys.load(conf, Map.of(), ClusterKey.NO_SLURM_USER))
        .isInstanceOf(IOException.class).hasMessageContaining("must not be readable");
  }

  @Test
  void aJwksKeySetIsRefusedRatherThanIgnored() throws Exception {
    Path conf = conf();
    ClusterKey.generate(dir.resolve("slurm.key"));
    Files.writeString(dir.resolve("slurm.jwks"), "{\"keys\": []}");
    assertThatThrownBy(() -> SackKeys.load(conf, Map.of(), ClusterKey.NO_SLURM_USER))
        .isInstanceOf(IOException.class).hasMessageContaining("slurm.jwks")
        .hasMessageContaining("not supported yet");
  }
}
