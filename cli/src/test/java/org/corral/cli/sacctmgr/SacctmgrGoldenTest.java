package org.corral.cli.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUpdateReply;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AcctWckey;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sacctmgr against a fake slurmdbd holding the state the reference Slurm 22.05 had when each
 * recording in golden/ was made (CASE.cmd, .out, .err, .rc from /work/acct-ref): stdout, stderr
 * and the exit code must match byte for byte.
 */
class SacctmgrGoldenTest {
  static final Path GOLDEN = Path.of("src/test/java/org/corral/cli/sacctmgr/golden");

  static AcctAssoc acct(int id, String name, String parent) {
    return AcctAssoc.newBuilder().setId(id).setCluster("reference").setAccount(name).setParentAccount(parent).build();
  }

  static AcctAssoc user(int id, String account, String user) {
    return AcctAssoc.newBuilder().setId(id).setCluster("reference").setAccount(account).setUser(user).build();
  }

  static AssocSnapshot.Builder empty() {
    return AssocSnapshot.newBuilder().addClusters(AcctCluster.newBuilder().setName("reference")
            .setControlHost("127.0.0.1").setControlPort(6817).setRpcVersion(9728))
        .addAccounts(AcctAccount.newBuilder().setName("root").setDescription("default root account").setOrganization("root"))
        .addUsers(AcctUser.newBuilder().setName("root").setDefaultAccount("root").setAdminLevel(3))
        .addAssocs(acct(1, "root", "").toBuilder().setQosSet(true).addQos("normal"))
        .addAssocs(user(2, "root", "root"))
        .addQos(AcctQos.newBuilder().setId(1).setName("normal").setDescription("Normal QOS default"));
  }

  static AssocSnapshot.Builder physics() {
    return empty().addAccounts(AcctAccount.newBuilder().setName("physics").setDescription("physics dept")
        .setOrganization("sci")).addAssocs(acct(3, "physics", "root"));
  }

  static AssocSnapshot.Builder theory() {
    return physics().addAccounts(AcctAccount.newBuilder().setName("theory").setDescription("theory")
        .setOrganization("physics")).addAssocs(acct(4, "theory", "physics"));
  }

  /** The reference after mgr_41: what every show_ case saw. */
  static AssocSnapshot.Builder full() {
    AssocSnapshot.Builder b = empty();
    b.addAccounts(AcctAccount.newBuilder().setName("chem").setDescription("chem dept").setOrganization("sci"))
        .addAccounts(AcctAccount.newBuilder().setName("physics").setDescription("physics dept").setOrganization("sci"))
        .addAccounts(AcctAccount.newBuilder().setName("theory").setDescription("theory").setOrganization("physics"))
        .addUsers(AcctUser.newBuilder().setName("alice").setDefaultAccount("physics").setAdminLevel(2))
        .addUsers(AcctUser.newBuilder().setName("bob").setDefaultAccount("theory").setAdminLevel(1))
        .addAssocs(acct(3, "chem", "root").toBuilder().setLimits(AcctLimits.newBuilder().setShares(20)))
        .addAssocs(acct(10, "physics", "root").toBuilder().setLimits(AcctLimits.newBuilder().setShares(50)))
        .addAssocs(acct(11, "theory", "physics"))
        .addAssocs(user(12, "theory", "alice"))
        .addAssocs(user(13, "physics", "alice"))
        .addAssocs(user(14, "theory", "bob").toBuilder().setQosSet(true).addQos("high").addQos("normal")
            .setLimits(AcctLimits.newBuilder().setMaxJobs(10)))
        .addQos(AcctQos.newBuilder().setId(2).setName("high").setDescription("high").setPriority(100)
            .setMaxWallMinutes(60));
    return b;
  }

  /** Account tla with time limits (record-timelimits.sh), as added, or as modified by tl_03. */
  static AssocSnapshot.Builder tla(boolean modified) {
    AcctLimits.Builder l = AcctLimits.newBuilder().setGrpTresMins(modified ? "cpu=120,mem=1000M" : "cpu=100")
        .setGrpWallMinutes(30).setMaxTresMinsPerJob(modified ? "cpu=60" : "cpu=50").setMaxWallMinutes(10);
    return empty().addAccounts(AcctAccount.newBuilder().setName("tla").setDescription("Account Name")
        .setOrganization("Parent/Account Name")).addAssocs(acct(3, "tla", "root").toBuilder().setLimits(l));
  }

  /** QOS tlq with time limits, as added, or as modified by tl_07. */
  static AssocSnapshot.Builder tlq(boolean modified) {
    AcctQos.Builder q = AcctQos.newBuilder().setId(2).setName("tlq").setDescription("tlq")
        .setGrpWallMinutes(modified ? 45 : 60).setMaxTresMinsPerJob(modified ? "cpu=30,node=4" : "cpu=20,node=4");
    return empty().addQos(modified ? q : q.setGrpTresMins("cpu=200"));
  }

  static AcctWckey wckey(int id, String name, String user) {
    return AcctWckey.newBuilder().setId(id).setCluster("reference").setName(name).setUser(user).build();
  }

  /** User wkuser with wckeys wk1 (default) and wk2 (record-wckeys.sh after wk_02), and wk3 after wk_07. */
  static AssocSnapshot.Builder wckeys(boolean withWk3) {
    AssocSnapshot.Builder b = empty().addUsers(AcctUser.newBuilder().setName("wkuser").setDefaultAccount("root")
        .setAdminLevel(1).setDefaultWckey("wk1")).addAssocs(user(3, "root", "wkuser"))
        .addWckeys(wckey(5, "wk1", "wkuser")).addWckeys(wckey(4, "wk2", "wkuser"));
    return withWk3 ? b.addWckeys(wckey(6, "wk3", "wkuser")) : b;
  }

  /** What wk_20 saw: wknew (wk1, no account) and wknew2 (wk5) beside wkuser. */
  static AssocSnapshot.Builder wckeysAll() {
    return wckeys(false).addUsers(AcctUser.newBuilder().setName("wknew").setAdminLevel(1).setDefaultWckey("wk1"))
        .addUsers(AcctUser.newBuilder().setName("wknew2").setDefaultAccount("root").setAdminLevel(1)
            .setDefaultWckey("wk5")).addAssocs(user(4, "root", "wknew2"))
        .addWckeys(wckey(7, "wk1", "wknew")).addWckeys(wckey(8, "wk5", "wknew2"));
  }

  static final Map<String, AssocSnapshot.Builder> WCKEY_STATES = Map.of("wk", wckeys(false), "wk3", wckeys(true),
      "wkall", wckeysAll());

  static final Map<String, AssocSnapshot.Builder> STATES = Map.of("empty", empty(), "physics", physics(),
      "theory", theory(), "full", full(), "bobchem", full().addAssocs(user(15, "chem", "bob")),
      "tla", tla(false), "tla_modified", tla(true), "tlq", tlq(false), "tlq_modified", tlq(true));

  /** Splits a recorded command line as the shell did (double quotes only). */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (char c : line.toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (c == ' ' && !quoted) {
        if (any) {
          out.add(w.toString());
        }
        w.setLength(0);
        any = false;
      } else {
        w.append(c);
        any = true;
      }
    }
    if (any) {
      out.add(w.toString());
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "show_01_account, full, ok", "show_02_account_s, full, ok", "show_03_account_withassoc, full, ok",
      "show_04_list_users, full, ok", "show_05_user_withassoc, full, ok", "show_06_assoc, full, ok",
      "show_07_assoc_fmt_P, full, ok", "show_08_qos, full, ok", "show_09_qos_fmt_p, full, ok",
      "show_10_cluster, full, ok", "show_11_tres, full, ok", "show_12_account_n, full, ok",
      "show_13_account_P, full, ok", "show_14_account_p, full, ok", "show_15_user_alice, full, ok",
      "show_16_user_where_name_alice, full, ok", "show_17_user_alice_withassoc_defacct_nP, full, ok",
      "show_21_user_s, full, ok", "show_22_user_nonexistent, full, ok", "show_23_assoc_tree, full, ok",
      "show_24_assoc_where_user_alice, full, ok", "show_25_assoc_where_account_physics, full, ok",
      "show_26_assoc_where_account_physics_s, full, ok", "show_30_user_fmt_admin, full, ok",
      "show_31_qos_high_all, full, ok", "show_32_assoc_fmt_width, full, ok",
      "show_36_user_parsable2_noheader_all, full, ok", "show_43_qos_normal_fmt, full, ok", "show_33_help, full, ok",
      "mgr_00_show_account_empty, empty, ok", "mgr_00_show_user_empty, empty, ok",
      "mgr_01_add_account_physics, empty, ok", "mgr_02_add_account_theory, physics, ok",
      "mgr_03_add_user_alice, theory, ok", "mgr_04_add_user_bob, theory, ok", "mgr_06_add_qos_high, empty, ok",
      "mgr_08_add_account_chem_noi_yes, empty, ok", "mgr_09_add_account_bio_noi_no, empty, ok",
      "mgr_15_add_existing_account, full, ok", "mgr_19_unknown_entity, full, ok", "mgr_20_unknown_command, full, ok",
      "mgr_22_nobody_add_account, full, denied", "mgr_30_add_user_nonexistent_account, full, ok",
      "mgr_31_add_account_bad_parent, full, ok", "mgr_34_show_bad_format, full, ok", "mgr_35_modify_no_set, full, ok",
      "mgr_12_modify_account_physics_fairshare, full, ok", "mgr_13_modify_account_where, full, ok",
      "mgr_40_modify_bob_maxjobs, full, ok", "mgr_17_delete_nonexistent_account, full, ok",
      "mgr_26_delete_user_bob_chem_assoc, bobchem, ok", "mgr_29_delete_account_with_children, full, ok",
      "tl_01_add_account_limits, empty, ok", "tl_02_add_qos_limits, empty, ok",
      "tl_03_modify_account_tres_mins, tla, ok", "tl_04_show_assoc_time_limits, tla_modified, ok",
      "tl_05_show_assoc_time_limits_P, tla_modified, ok", "tl_06_modify_unknown_tres, tla, ok",
      "tl_07_modify_qos_time_limits, tlq, ok", "tl_08_show_qos_time_limits, tlq_modified, ok",
      "tl_09_show_qos_p, tlq_modified, ok",
      "rm_01_add_qos_run_mins_no, empty, ok", "rm_02_add_account_run_mins_no, empty, ok",
      "rm_03_add_account_run_mins_clear_no, empty, ok",
      "wk_01_show_empty, empty, ok", "wk_02_add_user_wckeys, empty, ok", "wk_03_show, wk, ok",
      "wk_04_show_P_id, wk, ok", "wk_05_show_where_name, wk, ok", "wk_06_show_user_n, wk, ok",
      "wk_07_add_wckey_to_user, wk, ok", "wk_08_add_nothing_new, wk, ok", "wk_09_show_user_defwckey, wk, ok",
      "wk_10_format_width, wk3, ok", "wk_11_delete_user_wckey, wk3, ok", "wk_12_show_after_delete, wk, ok",
      "wk_13_bad_field, wk, ok", "wk_14_bad_condition, wk, ok", "wk_15_add_wckey_refused, wk, ok",
      "wk_16_delete_wckey_refused, wk, ok", "wk_17_show_other_cluster, wk, ok",
      "wk_18_new_user_no_account, wk, ok", "wk_19_add_user_defwckey_only, wk, ok", "wk_20_show_all, wkall, ok",
      "cl_01_add_cluster, empty, ok", "cl_02_add_existing_cluster, empty, ok",
      "cl_03_add_existing_and_new_clusters, empty, ok",
  })
  void matchesTheReference(String name, String state, String dbd) throws Exception {
    Run r = run(name, state, dbd);
    assertThat(r.out()).isEqualTo(Files.readString(GOLDEN.resolve(name + ".out")));
    assertThat(r.err()).isEqualTo(Files.readString(GOLDEN.resolve(name + ".err")));
    assertThat(r.rc()).isEqualTo(Integer.parseInt(Files.readString(GOLDEN.resolve(name + ".rc")).strip()));
    // what reached slurmdbd: a check then the commit after "y" or with -i; only the check after "n"
    if (r.stdin().startsWith("y")) {
      assertThat(r.updates()).extracting(u -> u.getAcctUpdate().getCheckOnly()).containsExactly(true, false);
    } else if (r.stdin().startsWith("n")) {
      assertThat(r.updates()).extracting(u -> u.getAcctUpdate().getCheckOnly()).containsExactly(true);
    } else if (r.rc() == 0 && name.startsWith("mgr_") && !name.contains("show")) {
      assertThat(r.updates()).hasSize(1);
    }
  }

  /** What reaches slurmdbd for a user's wckeys: the wckeys and the default, the first one named. */
  @org.junit.jupiter.api.Test
  void wckeyChangesReachSlurmdbd() throws Exception {
    var added = run("wk_02_add_user_wckeys", "empty", "ok").updates().get(0).getAcctUpdate().getChangesList();
    assertThat(added.get(0).getPutUser().getDefaultWckey()).isEqualTo("wk1");
    assertThat(added).filteredOn(c -> c.hasPutWckey()).extracting(c -> c.getPutWckey().getName())
        .containsExactly("wk2", "wk1");
    assertThat(run("wk_18_new_user_no_account", "wk", "ok").updates().get(0).getAcctUpdate().getChanges(0)
        .getPutUser().getDefaultWckey()).isEqualTo("wk1");
    assertThat(run("wk_11_delete_user_wckey", "wk3", "ok").updates().get(0).getAcctUpdate().getChanges(0)
        .getDeleteWckey()).isEqualTo(wckey(6, "wk3", "wkuser"));
  }

  /**
   * A TRES limit given again changes only the TRES it names (cpu=-1 removes one) and memory is
   * kept in Slurm's units: what slurmdbd receives is what the reference then showed.
   */
  @org.junit.jupiter.api.Test
  void timeLimitChangesReachSlurmdbdAsTheReferenceKeptThem() throws Exception {
    AcctAssoc sent = run("tl_03_modify_account_tres_mins", "tla", "ok").updates().get(0).getAcctUpdate()
        .getChanges(0).getPutAssoc();
    AcctAssoc shown = tla(true).getAssocs(2);
    assertThat(sent.getLimits()).isEqualTo(shown.getLimits());
    AcctQos qos = run("tl_07_modify_qos_time_limits", "tlq", "ok").updates().get(0).getAcctUpdate()
        .getChanges(0).getPutQos();
    assertThat(qos).isEqualTo(tlq(true).getQos(1));
  }

  record Run(String stdin, String out, String err, int rc, List<Request> updates) {}

  /** Runs case {@code name}'s recorded command against a fake slurmdbd in state {@code state}. */
  static Run run(String name, String state, String dbd) throws Exception {
    String cmd = Files.readString(GOLDEN.resolve(name + ".cmd")).strip();
    String stdin = "";
    if (cmd.startsWith("echo ")) {
      stdin = cmd.substring(5, cmd.indexOf('|')).strip() + "\n";
      cmd = cmd.substring(cmd.indexOf('|') + 1).strip();
    }
    if (cmd.startsWith("runuser")) {
      cmd = cmd.substring(cmd.indexOf("-- ") + 3);
    }
    List<String> args = words(cmd);
    assertThat(args.get(0)).isEqualTo("/usr/bin/sacctmgr");
    List<Request> updates = new ArrayList<>();
    AssocSnapshot snap = (STATES.containsKey(state) ? STATES : WCKEY_STATES).get(state).build();
    RpcChannel fake = request -> switch (request.getBodyCase()) {
      case ASSOC_SNAPSHOT -> Response.newBuilder().setAssocSnapshot(snap).build();
      case ACCT_UPDATE -> {
        updates.add(request);
        yield dbd.equals("denied") ? Response.newBuilder().setErrorCode(SlurmError.ACCESS_DENIED.code())
            .setErrorMessage("Access/permission denied").build()
            : Response.newBuilder().setAcctUpdate(AcctUpdateReply.newBuilder()
                .setApplied(request.getAcctUpdate().getChangesCount())).build();
      }
      default -> throw new AssertionError("unexpected " + request.getBodyCase());
    };
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sacctmgr", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.systemUTC(), () -> fake, () -> fake);
    int rc = new SacctmgrCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), 2000)
        .run(args.subList(1, args.size()), cli);
    return new Run(stdin, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc, updates);
  }
}
