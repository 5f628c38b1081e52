package org.corral.cli.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.ConfigEntry;
import org.corral.protocol.msg.ConfigReply;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sacctmgr show configuration against the reference Slurm 22.05 (golden/record-config.sh): with
 * a slurm.conf holding the reference's accounting settings and a fake slurmdbd answering the
 * reference slurmdbd's settings, the output is the reference's byte for byte, but for the
 * SLURM_CONF path (the test's file) and SlurmUserId (slurm's uid on this machine).
 */
class SacctmgrConfigurationGoldenTest {
  static final Path GOLDEN = SacctmgrGoldenTest.GOLDEN;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cf_01_show_configuration", "cf_02_list_config_np"})
  void matchesTheReference(String name, @TempDir Path dir) throws Exception {
    List<String> lines = Files.readAllLines(GOLDEN.resolve(name + ".out"));
    LocalDateTime asOf = LocalDateTime.parse(lines.get(0).substring("Configuration data as of ".length()));
    int dbdStart = lines.indexOf("SlurmDBD configuration:");
    ConfigReply.Builder dbd = ConfigReply.newBuilder();
    for (String l : lines.subList(dbdStart + 1, lines.size())) {
      int eq = l.indexOf(" = ");
      dbd.addEntries(ConfigEntry.newBuilder().setKey(l.substring(0, eq).strip()).setValue(l.substring(eq + 3)));
    }
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, """
        ClusterName=reference
        SlurmUser=slurm
        AuthType=auth/munge
        AccountingStorageType=accounting_storage/slurmdbd
        AccountingStorageHost=localhost
        AccountingStorageEnforce=associations,limits,qos
        PluginDir=/usr/lib/x86_64-linux-gnu/slurm-wlm
        NodeName=n1 CPUs=1 State=UNKNOWN
        PartitionName=debug Nodes=ALL Default=YES
        """);
    List<String> seen = new ArrayList<>();
    RpcChannel fake = request -> {
      seen.add(request.getBodyCase().name());
      return Response.newBuilder().setConfig(dbd).build();
    };
    List<String> args = SacctmgrGoldenTest.words(Files.readString(GOLDEN.resolve(name + ".cmd")).strip());
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sacctmgr", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("SLURM_CONF", conf.toString()),
        Clock.fixed(asOf.atZone(ZoneId.systemDefault()).toInstant(), ZoneId.systemDefault()), () -> fake, () -> fake);
    int rc = new SacctmgrCommand().run(args.subList(1, args.size()), cli);

    String slurmUser = "slurm(" + UserDirectory.system().uid("slurm").orElse(0) + ")";
    String expected = Files.readString(GOLDEN.resolve(name + ".out"))
        .replace("SLURM_CONF             = /etc/slurm/slurm.conf\n", "SLURM_CONF             = " + conf + "\n")
        .replace("SlurmUserId            = slurm(64030)\n", "SlurmUserId            = " + slurmUser + "\n");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(GOLDEN.resolve(name + ".err")));
    assertThat(rc).isEqualTo(Integer.parseInt(Files.readString(GOLDEN.resolve(name + ".rc")).strip()));
    assertThat(seen).containsExactly("CONFIG");
  }
}
