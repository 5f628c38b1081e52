package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.common.config.ConfigListing;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.ConfigEntry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * scontrol show config against Slurm 22.05.8's, for the slurm.conf files under
 * golden/showconfig/ (see its README): every line, in Slurm's order, but for the times (the
 * header and BOOT_TIME, from the recording's clock) and the documented deviation AuthType. The
 * cgroup section comes from the running controller (its nodes' reports) and is not compared here.
 */
class ShowConfigGoldenTest {
  @ParameterizedTest
  @ValueSource(strings = {"reference", "many", "minimal"})
  void printsWhatSlurmPrints(String name) throws Exception {
    SlurmConfig cfg = SlurmConfig.parse(resource(name + ".conf"), Path.of("/srv/corral/slurm.conf"));
    List<ConfigEntry> entries = ConfigListing.of(cfg, Map.of("BOOT_TIME", "0",
            "NEXT_JOB_ID", Long.toString(cfg.firstJobId()), "SlurmUser", "root(0)", "SlurmdUser", "root(0)"))
        .stream().map(e -> ConfigEntry.newBuilder().setKey(e.getKey()).setValue(e.getValue()).build()).toList();
    String corral = ConfigText.of(entries, 0, ZoneOffset.UTC);
    assertThat(corral).contains("\nAuthType                = auth/slurm\n");
    String slurm = resource(name + ".out");
    int sections = slurm.indexOf("\n\nCgroup Support Configuration:");
    slurm = (sections > 0 ? slurm.substring(0, sections) : slurm).stripTrailing() + "\n";
    assertThat(mask(corral)).isEqualTo(mask(slurm));
  }

  /** The lines that must differ: times, and AuthType (Corral's own authentication, not MUNGE). */
  private static String mask(String text) {
    return text.replaceAll("(?m)^(Configuration data as of|BOOT_TIME               =) .*$", "$1 TIME")
        .replaceAll("(?m)^(AuthType                =) .*$", "$1 AUTH");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ShowConfigGoldenTest.class.getResourceAsStream("/golden/showconfig/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
