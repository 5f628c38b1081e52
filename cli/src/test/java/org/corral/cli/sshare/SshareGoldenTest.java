package org.corral.cli.sshare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.ShareInfoReply;
import org.corral.protocol.msg.ShareInfoRequest;
import org.corral.protocol.msg.ShareRow;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * sshare against what Slurm 22.05 printed (golden/CASE.{cmd,out,err,rc}, copied from
 * /work/acct-ref), over a fake controller holding the shares the reference scenario implies:
 * root > {root user, chem 20, physics 50 > {alice, theory > {alice, bob}}} with jobs 25-27's
 * usage (4:8:2 CPUs side by side: 835, 1671 and 417 CPU-seconds of 2924), or none (sshare_pre_01,
 * live_11). Left out: sshare_pre_02/03 (Slurm had not run its first fairshare pass on the new
 * associations yet) and final_09 (slurmctld's cached lft of physics/alice went stale after the
 * sacctmgr changes of mgr_47..58 and its hierarchical sort put that association first).
 */
class SshareGoldenTest {
  static final Path GOLDEN = Path.of("src/test/java/org/corral/cli/sshare/golden");
  static final String TRES = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0";
  static final double U = 208.88;

  static ShareRow row(int id, String account, String user, String parent, int shares, double norm, double usage,
      double normUsage, double efctv, double fs, double levelFs) {
    ShareRow.Builder b = ShareRow.newBuilder().setAssocId(id).setCluster("reference").setAccount(account)
        .setUser(user).setParent(parent).setNormShares(norm).setRawUsage(usage).setEffectiveUsage(efctv)
        .setTresRunMins(TRES);
    if (shares > 0) {
      b.setRawShares(shares);
    }
    if (!Double.isNaN(normUsage)) {
      b.setNormUsage(normUsage);
    }
    if (!Double.isNaN(fs)) {
      b.setFairshare(fs);
    }
    if (!Double.isNaN(levelFs)) {
      b.setLevelFs(levelFs);
    }
    return b.build();
  }

  static final double NAN = Double.NaN;
  static final double INF = Double.POSITIVE_INFINITY;

  /** After jobs 25-27 (what ShareTreeTest computes from the same tree and usage). */
  static final List<ShareRow> USED = List.of(
      row(1, "root", "", "", 0, 0, 14 * U, NAN, 1, NAN, NAN),
      row(2, "root", "root", "root", 1, 1 / 71.0, 0, 0, 0, 1, INF),
      row(7, "chem", "", "root", 20, 20 / 71.0, 0, 0, 0, NAN, INF),
      row(13, "physics", "", "root", 50, 50 / 71.0, 14 * U, 1, 1, NAN, 50 / 71.0),
      row(16, "physics", "alice", "physics", 1, 0.5, 4 * U, 4 / 14.0, 4 / 14.0, 0.75, 0.5 / (4 / 14.0)),
      row(14, "theory", "", "physics", 1, 0.5, 10 * U, 10 / 14.0, 10 / 14.0, NAN, 0.5 / (10 / 14.0)),
      row(15, "theory", "alice", "theory", 1, 0.5, 2 * U, 2 / 14.0, 0.2, 0.5, 2.5),
      row(17, "theory", "bob", "theory", 1, 0.5, 8 * U, 8 / 14.0, 0.8, 0.25, 0.625));

  /** Before any usage: every user ties at the top. */
  static final List<ShareRow> UNUSED = List.of(
      row(1, "root", "", "", 0, 0, 0, NAN, 1, NAN, NAN),
      row(2, "root", "root", "root", 1, 1 / 71.0, 0, 0, 0, 1, INF),
      row(7, "chem", "", "root", 20, 20 / 71.0, 0, 0, 0, NAN, INF),
      row(13, "physics", "", "root", 50, 50 / 71.0, 0, 0, 0, NAN, INF),
      row(16, "physics", "alice", "physics", 1, 0.5, 0, 0, 0, 1, INF),
      row(14, "theory", "", "physics", 1, 0.5, 0, 0, 0, NAN, INF),
      row(15, "theory", "alice", "theory", 1, 0.5, 0, 0, 0, 1, INF),
      row(17, "theory", "bob", "theory", 1, 0.5, 0, 0, 0, 1, INF));

  /** The controller: rows filtered by user and account, as ShareRequests does. */
  static RpcChannel controller(List<ShareRow> rows) {
    return request -> {
      ShareInfoRequest q = request.getShareInfo();
      List<String> users = q.getUsersList().stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
      List<String> accounts = q.getAccountsList().stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
      ShareInfoReply.Builder b = ShareInfoReply.newBuilder().setFairTree(true);
      for (ShareRow r : rows) {
        if ((users.isEmpty() || r.getUser().isEmpty() || users.contains(r.getUser()))
            && (accounts.isEmpty() || accounts.contains(r.getAccount()))) {
          b.addRows(r);
        }
      }
      return Response.newBuilder().setShareInfo(b).build();
    };
  }

  static final UserDirectory USERS = org.corral.cli.golden.ReferenceUsers.INSTANCE;

  record Run(String out, String err, int rc) {}

  static Run run(String program, String caller, List<ShareRow> rows, List<String> args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(program, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.systemUTC(), () -> controller(rows));
    int rc = new SshareCommand(USERS, caller).run(args, cli);
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc);
  }

  @TestFactory
  Stream<DynamicTest> matchesSlurm() throws IOException {
    List<String> cases;
    try (Stream<Path> files = Files.list(GOLDEN)) {
      cases = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cmd"))
          .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
    }
    assertThat(cases).hasSizeGreaterThan(30);
    return cases.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
      List<String> words = new ArrayList<>(Arrays.asList(read(name, "cmd").strip().split(" ")));
      String caller = "root";
      if (words.get(0).equals("runuser")) { // runuser -u USER -- /usr/bin/sshare ...
        caller = words.get(2);
        words = words.subList(4, words.size());
      }
      boolean unused = name.startsWith("sshare_pre_") || name.startsWith("live_");
      Run r = run(words.get(0), caller, unused ? UNUSED : USED, words.subList(1, words.size()));
      assertThat(r.out()).isEqualTo(read(name, "out"));
      assertThat(r.err()).isEqualTo(read(name, "err"));
      assertThat(r.rc()).isEqualTo(Integer.parseInt(read(name, "rc").strip()));
    }));
  }

  @Test
  void classicShowsEveryRowsFactorAndNoLevelFs() {
    RpcChannel classic = request -> Response.newBuilder().setShareInfo(ShareInfoReply.newBuilder()
        .addRows(USED.get(0).toBuilder().setNormShares(1).setFairshare(0.5))).build();
    var out = new ByteArrayOutputStream();
    Cli cli = new Cli("sshare", new PrintStream(out, true, StandardCharsets.UTF_8), System.err, Map.of(),
        Clock.systemUTC(), () -> classic);
    assertThat(new SshareCommand(USERS, "root").run(List.of("-l", "-P"), cli)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
        "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|GrpTRESMins|TRESRunMins\n"
        + "root|||1.000000|2924||1.000000|0.500000||" + TRES + "\n");
  }

  @Test
  void unreachableControllerIsReportedAsSlurmDoes() {
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sshare", System.out, new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(),
        Clock.systemUTC(), () -> request -> {
          throw new IOException("refused");
        });
    assertThat(new SshareCommand(USERS, "root").run(List.of(), cli)).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("Couldn't get shares from controller: Unable to contact slurm controller (connect failure)\n");
  }

  private static String read(String name, String ext) throws IOException {
    return Files.readString(GOLDEN.resolve(name + "." + ext));
  }
}
