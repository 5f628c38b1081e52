package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.corral.cli.sacctmgr.Table.Column;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;

/** The columns of sacctmgr's listings, with Slurm's headers, widths and format= names. */
final class Columns {
  private Columns() {}

  /** One line of a listing: whichever of these the entity has. */
  record Row(View view, AcctAccount account, AcctUser user, AcctAssoc assoc, int depth, AcctQos qos,
      AcctCluster cluster, String[] tres) {
    static Row assoc(View v, AcctAssoc a, int depth) {
      return new Row(v, null, null, a, depth, null, null, null);
    }
  }

  static Column<Row> col(String header, int width, String names, Function<Row, String> value) {
    return new Column<>(header, width, List.of(names.split(",")), value);
  }

  static String num(boolean has, long v) {
    return has ? Long.toString(v) : "";
  }

  /** Slurm's mins2time_str: [D-]HH:MM:SS. */
  static String wall(boolean has, long minutes) {
    if (!has) {
      return "";
    }
    long d = minutes / 1440;
    long h = minutes % 1440 / 60;
    long m = minutes % 60;
    return d > 0 ? String.format(Locale.ROOT, "%d-%02d:%02d:00", d, h, m)
        : String.format(Locale.ROOT, "%02d:%02d:00", h, m);
  }

  /** One TRES of a TRES string ("cpu=4,node=2"), "" when absent. */
  static String tres(String list, String name) {
    for (String p : list.split(",")) {
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).equals(name)) {
        return p.substring(eq + 1);
      }
    }
    return "";
  }

  private static AcctLimits own(Row r) {
    return r.assoc() == null ? AcctLimits.getDefaultInstance() : r.assoc().getLimits();
  }

  private static AcctLimits max(Row r) {
    return r.assoc() == null ? AcctLimits.getDefaultInstance() : r.view().inherited(r.assoc());
  }

  private static String ifAssoc(Row r, Function<AcctAssoc, String> f) {
    return r.assoc() == null ? "" : f.apply(r.assoc());
  }

  /** The columns an association has (account -s, user -s, show assoc). */
  static List<Column<Row>> assoc(boolean tree) {
    List<Column<Row>> c = new ArrayList<>();
    c.add(col("Cluster", 10, "cluster", r -> ifAssoc(r, AcctAssoc::getCluster)));
    c.add(col("Account", tree ? -20 : 10, "account,acct", r -> r.assoc() == null
        ? (r.account() == null ? "" : r.account().getName())
        : (tree ? " ".repeat(r.depth()) : "") + r.assoc().getAccount()));
    c.add(col("User", 10, "user", r -> r.assoc() != null ? r.assoc().getUser() : r.user() == null ? "" : r.user().getName()));
    c.add(col("Partition", 10, "partition", r -> ifAssoc(r, AcctAssoc::getPartition)));
    c.add(col("ParentName", 10, "parentname,parent", r -> ifAssoc(r, AcctAssoc::getParentAccount)));
    c.add(col("ID", 6, "id,associd", r -> ifAssoc(r, a -> Integer.toString(a.getId()))));
    c.add(col("Share", 9, "fairshare,share,shares", r -> ifAssoc(r, a -> a.getLimits().hasShares()
        ? Integer.toString(a.getLimits().getShares()) : "1")));
    c.add(col("Priority", 10, "priority", r -> num(own(r).hasPriority(), own(r).getPriority())));
    c.add(col("GrpJobs", 7, "grpjobs", r -> num(own(r).hasGrpJobs(), own(r).getGrpJobs())));
    c.add(col("GrpNodes", 8, "grpnodes", r -> tres(own(r).getGrpTres(), "node")));
    c.add(col("GrpCPUs", 8, "grpcpus", r -> tres(own(r).getGrpTres(), "cpu")));
    c.add(col("GrpMem", 7, "grpmem", r -> tres(own(r).getGrpTres(), "mem")));
    c.add(col("GrpTRES", 13, "grptres", r -> own(r).getGrpTres()));
    c.add(col("GrpSubmit", 9, "grpsubmitjobs,grpsubmit", r -> num(own(r).hasGrpSubmitJobs(), own(r).getGrpSubmitJobs())));
    c.add(col("GrpWall", 11, "grpwall", r -> wall(own(r).hasGrpWallMinutes(), own(r).getGrpWallMinutes())));
    c.add(col("GrpCPUMins", 11, "grpcpumins", r -> ""));
    c.add(col("GrpTRESMins", 13, "grptresmins", r -> own(r).getGrpTresMins()));
    c.add(col("GrpTRESRunMins", 13, "grptresrunmins", r -> own(r).getGrpTresRunMins()));
    c.add(col("MaxJobs", 7, "maxjobs", r -> num(max(r).hasMaxJobs(), max(r).getMaxJobs())));
    c.add(col("MaxNodes", 8, "maxnodes,maxnodesperjob", r -> tres(max(r).getMaxTresPerJob(), "node")));
    c.add(col("MaxCPUs", 8, "maxcpus,maxcpusperjob", r -> tres(max(r).getMaxTresPerJob(), "cpu")));
    c.add(col("MaxTRES", 13, "maxtres,maxtresperjob", r -> max(r).getMaxTresPerJob()));
    c.add(col("MaxTRESPerNode", 14, "maxtrespernode", r -> ""));
    c.add(col("MaxSubmit", 9, "maxsubmitjobs,maxsubmit", r -> num(max(r).hasMaxSubmitJobs(), max(r).getMaxSubmitJobs())));
    c.add(col("MaxWall", 11, "maxwall,maxwalldurationperjob", r -> wall(max(r).hasMaxWallMinutes(), max(r).getMaxWallMinutes())));
    c.add(col("MaxCPUMins", 11, "maxcpumins", r -> ""));
    c.add(col("MaxTRESMins", 13, "maxtresmins,maxtresminsperjob", r -> max(r).getMaxTresMinsPerJob()));
    c.add(col("QOS", 20, "qos", r -> ifAssoc(r, a -> r.view().qos(a))));
    c.add(col("Def QOS", 9, "defaultqos,defqos", r -> ifAssoc(r, a -> r.view().defaultQos(a))));
    return c;
  }

  static List<Column<Row>> account() {
    List<Column<Row>> c = new ArrayList<>();
    c.add(col("Account", 10, "account,acct,name", r -> r.account().getName()));
    c.add(col("Descr", 20, "description,descr", r -> r.account().getDescription()));
    c.add(col("Org", 20, "organization,org", r -> r.account().getOrganization()));
    c.addAll(assoc(false).stream().filter(x -> !x.header().equals("Account")).toList());
    return c;
  }

  static List<Column<Row>> user() {
    List<Column<Row>> c = new ArrayList<>();
    c.add(col("User", 10, "user,name", r -> r.user().getName()));
    c.add(col("Def Acct", 10, "defaultaccount,defacct", r -> r.view().defaultAccount(r.user())));
    c.add(col("Def WCKey", 10, "defaultwckey,defwckey", r -> r.user().getDefaultWckey()));
    c.add(col("Admin", 9, "adminlevel,admin", r -> switch (r.user().getAdminLevel()) {
      case 2 -> "Operator";
      case 3 -> "Administrator";
      default -> "None";
    }));
    c.add(col("Coord Accounts", 20, "coordinators,coord", r -> String.join(",", r.user().getCoordAccountsList())));
    c.addAll(assoc(false).stream().filter(x -> !x.header().equals("User")).toList());
    return c;
  }

  static List<Column<Row>> qos() {
    List<Column<Row>> c = new ArrayList<>();
    c.add(col("Name", 10, "name", r -> r.qos().getName()));
    c.add(col("Priority", 10, "priority", r -> Integer.toString(r.qos().getPriority())));
    c.add(col("GraceTime", 10, "gracetime", r -> Columns.wall(true, r.qos().getGraceTime() / 60)));
    c.add(col("Preempt", 10, "preempt", r -> String.join(",", r.qos().getPreemptList())));
    c.add(col("PreemptExemptTime", 19, "preemptexempttime", r -> ""));
    c.add(col("PreemptMode", 11, "preemptmode", r -> r.qos().getPreemptMode().isEmpty() ? "cluster" : r.qos().getPreemptMode()));
    c.add(col("Flags", 40, "flags", r -> String.join(",", r.qos().getFlagsList())));
    c.add(col("UsageThres", 10, "usagethreshold,usagethres", r -> ""));
    c.add(col("UsageFactor", 11, "usagefactor", r -> String.format(Locale.ROOT, "%.6f",
        r.qos().getUsageFactor() == 0 ? 1.0 : r.qos().getUsageFactor())));
    c.add(col("GrpTRES", 13, "grptres", r -> r.qos().getGrpTres()));
    c.add(col("GrpTRESMins", 13, "grptresmins", r -> r.qos().getGrpTresMins()));
    c.add(col("GrpTRESRunMins", 13, "grptresrunmins", r -> r.qos().getGrpTresRunMins()));
    c.add(col("GrpJobs", 7, "grpjobs", r -> num(r.qos().hasGrpJobs(), r.qos().getGrpJobs())));
    c.add(col("GrpSubmit", 9, "grpsubmitjobs,grpsubmit", r -> num(r.qos().hasGrpSubmitJobs(), r.qos().getGrpSubmitJobs())));
    c.add(col("GrpWall", 11, "grpwall", r -> wall(r.qos().hasGrpWallMinutes(), r.qos().getGrpWallMinutes())));
    c.add(col("MaxTRES", 13, "maxtres,maxtresperjob", r -> r.qos().getMaxTresPerJob()));
    c.add(col("MaxTRESPerNode", 14, "maxtrespernode", r -> ""));
    c.add(col("MaxTRESMins", 13, "maxtresmins,maxtresminsperjob", r -> r.qos().getMaxTresMinsPerJob()));
    c.add(col("MaxWall", 11, "maxwall,maxwalldurationperjob", r -> wall(r.qos().hasMaxWallMinutes(), r.qos().getMaxWallMinutes())));
    c.add(col("MaxTRESPU", 13, "maxtresperuser,maxtrespu", r -> r.qos().getMaxTresPerUser()));
    c.add(col("MaxJobsPU", 9, "maxjobsperuser,maxjobspu", r -> num(r.qos().hasMaxJobsPerUser(), r.qos().getMaxJobsPerUser())));
    c.add(col("MaxSubmitPU", 11, "maxsubmitjobsperuser,maxsubmitpu", r -> num(r.qos().hasMaxSubmitJobsPerUser(),
        r.qos().getMaxSubmitJobsPerUser())));
    c.add(col("MaxTRESPA", 13, "maxtresperaccount,maxtrespa", r -> ""));
    c.add(col("MaxJobsPA", 9, "maxjobsperaccount,maxjobspa", r -> ""));
    c.add(col("MaxSubmitPA", 11, "maxsubmitjobsperaccount,maxsubmitpa", r -> ""));
    c.add(col("MinTRES", 13, "mintresperjob,mintres", r -> ""));
    c.add(col("Descr", 20, "description,descr", r -> r.qos().getDescription()));
    c.add(col("ID", 6, "id", r -> Integer.toString(r.qos().getId())));
    return c;
  }

  static List<Column<Row>> cluster() {
    List<Column<Row>> c = new ArrayList<>();
    c.add(col("Cluster", 10, "cluster,name", r -> r.cluster().getName()));
    c.add(col("ControlHost", 15, "controlhost", r -> r.cluster().getControlHost()));
    c.add(col("ControlPort", 12, "controlport", r -> Integer.toString(r.cluster().getControlPort())));
    c.add(col("RPC", 5, "rpc", r -> Integer.toString(r.cluster().getRpcVersion())));
    c.add(col("NodeCount", 9, "nodecount", r -> ""));
    c.add(col("NodeName", 20, "nodenames,nodename", r -> ""));
    c.addAll(assoc(false).stream().filter(x -> List.of("Share", "GrpJobs", "GrpTRES", "GrpSubmit", "MaxJobs",
        "MaxTRES", "MaxSubmit", "MaxWall", "QOS", "Def QOS").contains(x.header())).toList());
    return c;
  }

  static List<Column<Row>> tres() {
    return List.of(col("Type", 8, "type", r -> r.tres()[0]), col("Name", 15, "name", r -> r.tres()[1]),
        col("ID", 6, "id", r -> r.tres()[2]));
  }

  static final String ACCOUNT = "account,descr,org";
  static final String ACCOUNT_ASSOC = "account,descr,org,cluster,parentname,user,share,priority,grpjobs,grpnodes,"
      + "grpcpus,grpmem,grpsubmit,grpwall,grpcpumins,maxjobs,maxnodes,maxcpus,maxsubmit,maxwall,maxcpumins,qos,defqos";
  static final String USER = "user,defacct,admin";
  static final String USER_ASSOC = "cluster,account,partition,share,priority,maxjobs,maxnodes,maxcpus,maxsubmit,"
      + "maxwall,maxcpumins,qos,defqos";
  static final String ASSOC = "cluster,account,user,partition,share,priority,grpjobs,grptres,grpsubmit,grpwall,"
      + "grptresmins,maxjobs,maxtres,maxtrespernode,maxsubmit,maxwall,maxtresmins,qos,defqos,grptresrunmins";
  static final String QOS = "name,priority,gracetime,preempt,preemptexempttime,preemptmode,flags,usagethres,"
      + "usagefactor,grptres,grptresmins,grptresrunmins,grpjobs,grpsubmit,grpwall,maxtres,maxtrespernode,"
      + "maxtresmins,maxwall,maxtrespu,maxjobspu,maxsubmitpu,maxtrespa,maxjobspa,maxsubmitpa,mintres";
  static final String CLUSTER = "cluster,controlhost,controlport,rpc,share,grpjobs,grptres,grpsubmit,maxjobs,maxtres,"
      + "maxsubmit,maxwall,qos,defqos";
}
