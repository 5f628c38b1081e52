package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.ConfigEntry;
import org.corral.protocol.msg.ConfigReply;
import org.corral.protocol.msg.PingReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class ShowConfigTest {
  private static ConfigEntry e(String k, String v) {
    return ConfigEntry.newBuilder().setKey(k).setValue(v).build();
  }

  @Test
  void listsTheEntriesInTheControllersOrderThenTheCgroupSectionThenThePing() {
    ConfigReply config = ConfigReply.newBuilder().addEntries(e("SlurmctldPort", "6817"))
        .addEntries(e("ClusterName", "corral")).addEntries(e("cgroup.conf:CgroupPlugin", "autodetect"))
        .addEntries(e("cgroup.conf:CgroupPluginInUse", "n[1-2]=cgroup/v1")).build();
    CommandRun r = CommandRun.of(new ScontrolCommand(UserDirectory.none()), "scontrol",
        Map.of("SLURM_CONF", "/nonexistent"), Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC),
        request -> request.hasConfig() ? Response.newBuilder().setConfig(config).build()
            : Response.newBuilder().setPing(PingReply.newBuilder().setHost("vm").setPrimary(true)).build(),
        List.of("show", "config"));
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("""
        Configuration data as of 1970-01-12T13:46:40
        SlurmctldPort           = 6817
        ClusterName             = corral

        Cgroup Support Configuration:
        CgroupPlugin            = autodetect
        CgroupPluginInUse       = n[1-2]=cgroup/v1

        Slurmctld(primary) at vm is UP
        """);
  }
}
