package org.corral.cli.strigger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TriggerInfo;
import org.corral.protocol.msg.TriggerReply;
import org.corral.protocol.msg.TriggerRequest;
import org.junit.jupiter.api.Test;

/** strigger's table, filters, checks and messages, against Slurm 22.05's (recorded). */
class StriggerCommandTest {
  private final List<TriggerRequest> sent = new ArrayList<>();

  /** The triggers the reference listed in get-22.05.txt. */
  private static final List<TriggerInfo> RECORDED = List.of(
      trigger(3, "node", "*", "idle", 600, true, "/tmp/susp"),
      trigger(4, "node", "n[1-2]", "drained", 0, false, "/tmp/dr"),
      trigger(6, "slurmctld", "*", "primary_slurmctld_failure", 0, false, "/tmp/dr"),
      trigger(7, "node", "*", "fail", 0, false, "/tmp/dr"),
      trigger(15, "node", "n2", "up", 0, true, "/tmp/dr"),
      trigger(21, "node", "n1", "down", 0, false, "/etc/hostname"),
      trigger(23, "job", "6", "time", -600, false, "/tmp/cleanup now"),
      trigger(24, "node", "n1,n3,n4", "down", 0, false, "/tmp/dr with some args"),
      trigger(25, "job", "6", "fini", 0, false, "/tmp/fini"));

  private static TriggerInfo trigger(int id, String resType, String resId, String type, int offset, boolean perm,
      String program) {
    return TriggerInfo.newBuilder().setId(id).setResType(resType).setResId(resId).setType(type).setOffset(offset)
        .setUserName("root").setPerm(perm).setProgram(program).build();
  }

  private CommandRun run(Response answer, String... args) {
    RpcChannel controller = request -> {
      sent.add(request.getTrigger());
      return answer;
    };
    return CommandRun.of(new StriggerCommand(), "strigger", Map.of(), Clock.systemUTC(), controller, List.of(args));
  }

  private static Response listed() {
    return Response.newBuilder().setTrigger(TriggerReply.newBuilder().addAllTriggers(RECORDED)).build();
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = StriggerCommandTest.class.getResourceAsStream("/strigger/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theTableIsTheReferences() throws Exception {
    CommandRun r = run(listed(), "--get");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo(golden("get-22.05.txt"));
    assertThat(run(listed(), "--get", "-N", "-j", "6").out()).isEqualTo(golden("get-job-noheader-22.05.txt"));
  }

  @Test
  void getFiltersAsStriggerDoes() {
    assertThat(run(listed(), "--get", "-N", "--down").out().lines().map(l -> l.strip().split(" +")[0]))
        .containsExactly("21", "24");
    assertThat(run(listed(), "--get", "-N", "-n").out().lines().map(l -> l.strip().split(" +")[0]))
        .containsExactly("3", "4", "7", "15", "21", "24");
    assertThat(run(listed(), "--get", "-N", "--id=15").out().lines().count()).isEqualTo(1);
    // nothing selected: not even the header
    assertThat(run(listed(), "--get", "--id=99").out()).isEmpty();
  }

  @Test
  void setSendsOneTriggerAndItsChecksComeInTheReferencesOrder() {
    Response ok = Response.newBuilder().setTrigger(TriggerReply.getDefaultInstance()).build();
    CommandRun r = run(ok, "--set", "-nn[1-2]", "--down", "--offset=60", "--flags=PERM", "--program=/bin/true x");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out() + r.err()).isEmpty();
    TriggerInfo t = sent.get(0).getSet();
    assertThat(List.of(t.getResType(), t.getResId(), t.getType(), t.getProgram())).containsExactly("node", "n[1-2]",
        "down", "/bin/true x");
    assertThat(t.getOffset()).isEqualTo(60);
    assertThat(t.getPerm()).isTrue();
    run(ok, "--set", "-j", "7", "--time", "-o", "-300", "-p", "/bin/true");
    assertThat(sent.get(1).getSet().getResType()).isEqualTo("job");
    assertThat(sent.get(1).getSet().getResId()).isEqualTo("7");

    assertThat(run(ok, "--get", "--set").err()).isEqualTo(
        "strigger: error: You must use exactly one of the following options: --set, --get or --clear\n");
    assertThat(run(ok, "--set", "-p", "/bin/true").err()).startsWith(
        "strigger: error: You must specify a trigger (--down, --up, --reconfig, --time, --fini, --burst_buffer,\n")
        .endsWith("--primary_database_failure, or \n--primary_database_resumed_operation)\n\n");
    assertThat(run(ok, "--set", "-t", "-p", "/bin/true").err())
        .isEqualTo("strigger: error: You must specify a --jobid value\n");
    assertThat(run(ok, "--set", "-d").err()).isEqualTo("strigger: error: You must specify a --program value\n");
    assertThat(run(ok, "--set", "-d", "-p", "x", "-o", "40000").err())
        .isEqualTo("strigger: error: The --program value must start with \"/\"\n");
    assertThat(run(ok, "--set", "-d", "-p", "/no/such/prog").err())
        .isEqualTo("strigger: error: Invalid --program value, file not found\n");
    assertThat(run(ok, "--set", "-d", "-p", "/tmp").err())
        .isEqualTo("strigger: error: Invalid --program value, not regular file\n");
    assertThat(run(ok, "--set", "-d", "-p", "/bin/true", "-o", "40000").err())
        .isEqualTo("strigger: error: The --offset parameter must be between +/-32000\n");
    CommandRun flags = run(ok, "--set", "-d", "-p", "/bin/true", "--flags=foo");
    assertThat(flags.exitCode()).isEqualTo(1);
    assertThat(flags.err()).isEqualTo("strigger: error: Invalid flags foo\n");
    assertThat(sent).hasSize(2);
  }

  @Test
  void refusalsAreReportedWithTheLibraryCallsName() {
    Response denied = Response.newBuilder().setErrorCode(SlurmError.ACCESS_DENIED.code())
        .setErrorMessage("Access/permission denied").build();
    CommandRun set = run(denied, "--set", "-d", "-p", "/bin/true");
    assertThat(set.exitCode()).isEqualTo(1);
    assertThat(set.err()).isEqualTo("slurm_set_trigger: Access/permission denied\n");
    Response none = Response.newBuilder().setErrorCode(SlurmError.NO_SUCH_PROCESS.code())
        .setErrorMessage("No such process").build();
    CommandRun clear = run(none, "--clear", "--id=999");
    assertThat(clear.exitCode()).isEqualTo(1);
    assertThat(clear.err()).isEqualTo("slurm_clear_trigger: No such process\n");
    CommandRun quiet = run(none, "--clear", "-Q", "--id=999");
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.err()).isEmpty();
    assertThat(run(none, "--clear").err()).isEqualTo("strigger: error: You must specify a --id, --jobid, or --user to clear\n");
    assertThat(run(none, "--get", "--user=nosuch_user_x").err()).isEqualTo("strigger: error: Invalid user nosuch_user_x\n");
  }

  @Test
  void helpUsageAndVersion() throws Exception {
    assertThat(run(listed(), "--usage").out())
        .isEqualTo("Usage: strigger [--set | --get | --clear | --version] [-aAbBcCdDefFgGhHiIjnNopQrtuv]\n");
    assertThat(run(listed(), "--help").out()).startsWith("Usage: strigger [--set | --get | --clear] [OPTIONS]\n");
    assertThat(run(listed(), "-V").out()).isEqualTo("slurm-wlm 22.05.8\n");
  }
}
