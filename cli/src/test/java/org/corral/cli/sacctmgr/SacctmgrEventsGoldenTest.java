package org.corral.cli.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.NodeEvents;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.EventQueryReply;
import org.corral.protocol.msg.EventQueryRequest;
import org.corral.protocol.msg.NodeEvent;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sacctmgr show event against a fake slurmdbd serving the events the reference Slurm 22.05 had
 * when the ev_* cases were recorded (golden/record-events.sh: events.psv, at events.now), selecting
 * them with slurmdbd's own rule (NodeEvents.matches): stdout, stderr and exit code byte for byte.
 */
class SacctmgrEventsGoldenTest {
  static final Path GOLDEN = SacctmgrGoldenTest.GOLDEN;

  static long epoch(String iso) {
    return iso.equals("Unknown") ? 0 : LocalDateTime.parse(iso).atZone(ZoneId.systemDefault()).toEpochSecond();
  }

  /** The recorded events: node, start, end, state, reason, user(uid), TRES, cluster nodes. */
  static List<NodeEvent> recorded() throws Exception {
    List<NodeEvent> out = new ArrayList<>();
    for (String line : Files.readAllLines(GOLDEN.resolve("events.psv"))) {
      String[] f = line.split("\\|", -1);
      String uid = f[5].isEmpty() ? "0" : f[5].substring(f[5].indexOf('(') + 1, f[5].indexOf(')'));
      out.add(NodeEvent.newBuilder().setCluster("reference").setNode(f[0]).setTimeStart(epoch(f[1]))
          .setTimeEnd(epoch(f[2])).setState(Integer.parseUnsignedInt(f[3])).setReason(f[4])
          .setReasonUid(Integer.parseUnsignedInt(uid)).setTres(f[6]).setClusterNodes(f[7]).build());
    }
    return out;
  }

  /**
   * The recording machine's users that the events name (the reference's SlurmUser is uid 64030
   * there): the test must not depend on this machine's /etc/passwd having them.
   */
  static final UserDirectory RECORDING_USERS = UserDirectory.of(Map.of("root", 0, "slurm", 64030));

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ev_01_default", "ev_02_list_P", "ev_03_np", "ev_04_nodes", "ev_05_event_node",
      "ev_06_event_cluster", "ev_07_states_open", "ev_08_states_down_all_time", "ev_09_user_root",
      "ev_10_user_slurm", "ev_11_reason", "ev_12_where_nodes", "ev_13_all_fields", "ev_14_all_fields_p",
      "ev_15_format_width", "ev_16_bad_field", "ev_17_bad_event", "ev_18_bare_word", "ev_19_bad_state",
      "ev_20_bad_condition", "ev_21_bad_user", "ev_22_bad_start", "ev_23_open", "ev_24_nodes_range",
      "ev_25_states_drain_start", "ev_26_closed_duration", "ev_27_other_cluster", "ev_28_mincpus_bad"})
  void matchesTheReference(String name) throws Exception {
    List<NodeEvent> events = recorded();
    long now = Long.parseLong(Files.readString(GOLDEN.resolve("events.now")).strip());
    RpcChannel fake = request -> {
      EventQueryRequest q = request.getEventQuery();
      List<NodeEvent> hits = events.stream().filter(e -> q.getClustersCount() == 0
          || q.getClustersList().contains(e.getCluster())).filter(e -> NodeEvents.matches(q, e)).toList();
      return Response.newBuilder().setEventQuery(EventQueryReply.newBuilder().addAllEvents(hits)).build();
    };
    List<String> args = SacctmgrGoldenTest.words(Files.readString(GOLDEN.resolve(name + ".cmd")).strip());
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sacctmgr", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(),
        Clock.fixed(Instant.ofEpochSecond(now), ZoneId.systemDefault()), () -> fake, () -> fake);
    int rc = new SacctmgrCommand(System.in, 30_000, RECORDING_USERS).run(args.subList(1, args.size()), cli);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(GOLDEN.resolve(name + ".out")));
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(GOLDEN.resolve(name + ".err")));
    assertThat(rc).isEqualTo(Integer.parseInt(Files.readString(GOLDEN.resolve(name + ".rc")).strip()));
  }
}
