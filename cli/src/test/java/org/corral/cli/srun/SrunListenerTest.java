package org.corral.cli.srun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** srun's I/O listener: SrunPortRange, and the address the nodes are given. */
class SrunListenerTest {
  @TempDir Path dir;

  private Path conf(String extra) throws IOException {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, """
        ClusterName=t
        SlurmctldHost=ctl(127.0.0.1)
        NodeName=n1 CPUs=1
        PartitionName=p Nodes=n1 Default=YES
        """ + extra);
    return conf;
  }

  @Test
  void listensWithinSrunPortRangeSkippingTakenPorts() throws IOException {
    try (ServerSocket probe = new ServerSocket(0)) {
      int taken = probe.getLocalPort();
      if (taken >= 65535) {
        return; // no room above it for a range on this host
      }
      try (ServerSocket listener = SrunListener.open(conf("SrunPortRange=" + taken + "-"
          + (taken + 1) + "\n"))) {
        assertThat(listener.getLocalPort()).isEqualTo(taken + 1);
      } catch (IOException e) {
        // taken + 1 held by someone else at this moment: the range is then full, as reported
        assertThat(e).hasMessageContaining("no free port in SrunPortRange");
      }
    }
  }

  @Test
  void aFullRangeIsReported() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(0));
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> SrunListener.open(conf("SrunPortRange=" + port + "-" + port + "\n")))
          .hasMessage("no free port in SrunPortRange=" + port + "-" + port);
    }
  }

  @Test
  void withoutARangeAnyFreePort() throws IOException {
    try (ServerSocket listener = SrunListener.open(conf(""))) {
      assertThat(listener.getLocalPort()).isPositive();
    }
    assertThat(SrunListener.portRange(conf("SrunPortRange=0-0\n"))).isEmpty();
    assertThat(SrunListener.portRange(conf("SrunPortRange=60001-60010\n")).orElseThrow())
        .containsExactly(60001, 60010);
  }

  @Test
  void aHostNameThatDoesNotResolveStillGivesTheRoutesAddress() throws IOException {
    assertThat(SrunListener.commHost(conf(""), "no-such-host.invalid")).isEqualTo("127.0.0.1");
  }
}
