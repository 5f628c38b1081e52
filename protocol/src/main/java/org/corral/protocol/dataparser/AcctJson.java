package org.corral.protocol.dataparser;

import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.corral.common.Hostlist;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctCluster;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepUsage;

/**
 * slurmdbd's records as data_parser v0.0.42 writes them: v0.0.42_job (with its steps),
 * v0.0.42_account, v0.0.42_assoc, v0.0.42_user, v0.0.42_qos, v0.0.42_tres, v0.0.42_cluster_rec.
 * Field placement follows Slurm's parser tables (an association's grp_jobs is
 * {@code max/jobs/active}, its max_jobs {@code max/jobs/per/count}, ...); a limit slurmdbd
 * keeps none of is INFINITE, as Slurm shows it.
 */
public final class AcctJson {
  private AcctJson() {}

  /** Slurm's TRES table as a new database has it: type, name, id. */
  public static final List<String[]> TRES = List.of(new String[] {"cpu", "", "1"}, new String[] {"mem", "", "2"},
      new String[] {"energy", "", "3"}, new String[] {"node", "", "4"}, new String[] {"billing", "", "5"},
      new String[] {"fs", "disk", "6"}, new String[] {"vmem", "", "7"}, new String[] {"pages", "", "8"});

  public static JsonArray tresTable() {
    JsonArray a = new JsonArray();
    for (String[] t : TRES) {
      tres(a, t[0], t[1], Integer.parseInt(t[2]), 0);
    }
    return a;
  }

  private static void tres(JsonArray list, String type, String name, int id, long count) {
    JsonObject t = list.addObject();
    t.put("type", type);
    t.put("name", name);
    t.put("id", id);
    t.put("count", count);
  }

  /** A TRES string ("cpu=4,mem=100M,node=2", memory in MB) as v0.0.42_tres_list. */
  public static JsonArray tresList(String text) {
    JsonArray a = new JsonArray();
    if (text == null || text.isBlank()) {
      return a;
    }
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String type = key.contains("/") ? key.substring(0, key.indexOf('/')) : key;
      String name = key.contains("/") ? key.substring(key.indexOf('/') + 1) : "";
      int id = TRES.stream().filter(t -> t[0].equals(type) && t[1].equals(name)).map(t -> Integer.parseInt(t[2]))
          .findFirst().orElse(0);
      tres(a, type, name, id, count(type, part.substring(eq + 1).trim()));
    }
    return a;
  }

  private static long count(String type, String v) {
    if (v.isEmpty()) {
      return 0;
    }
    char unit = Character.toUpperCase(v.charAt(v.length() - 1));
    long n;
    try {
      n = Long.parseLong(Character.isDigit(unit) ? v : v.substring(0, v.length() - 1));
    } catch (NumberFormatException e) {
      return 0;
    }
    if (!type.equals("mem") || Character.isDigit(unit)) {
      return n;
    }
    return switch (unit) {
      case 'K' -> n / 1024;
      case 'G' -> n * 1024;
      case 'T' -> n * 1024 * 1024;
      default -> n;
    };
  }

  /** v0.0.42_job: a job's accounting record with its steps (unless {@code withSteps} is off). */
  public static JsonObject job(AcctJob j, boolean withSteps, IntFunction<String> userName, long now) {
    JsonObject o = new JsonObject();
    boolean ended = j.getEndTime() > 0;
    o.put("account", j.getAccount());
    JsonObject comment = o.putObject("comment");
    comment.put("administrator", "");
    comment.put("job", j.getComment());
    comment.put("system", "");
    o.put("allocation_nodes", j.getStartTime() > 0 ? j.getNumNodes() : 0);
    JsonObject array = o.putObject("array");
    array.put("job_id", j.getArrayJobId());
    array.putObject("limits").putObject("max").putObject("running").put("tasks", 0);
    array.set("task_id", j.getArrayJobId() != 0 && j.getArrayTasks().isEmpty()
        ? NoVal.number(Integer.toUnsignedLong(j.getArrayTaskId())) : NoVal.unset());
    array.put("task", j.getArrayTasks());
    o.set("association", assocShort(j.getCluster(), j.getAccount(), j.getUserName(), j.getPartition(), 0));
    o.put("block", "");
    o.put("cluster", j.getCluster());
    o.put("constraints", j.getConstraints());
    o.put("container", "");
    o.set("derived_exit_code", JobJson.exitCode(j.getDerivedExitStatus(), ended));
    JsonObject time = o.putObject("time");
    long start = j.getStartTime();
    long elapsed = start == 0 ? 0 : Math.max(0, (ended ? j.getEndTime() : now) - start);
    time.put("elapsed", elapsed);
    time.put("eligible", j.getEligibleTime());
    time.put("end", j.getEndTime());
    long eligible = j.getEligibleTime();
    time.set("planned", eligible == 0 ? NoVal.unset()
        : NoVal.number(Math.max(0, (start > 0 ? start : ended ? j.getEndTime() : now) - eligible)));
    time.put("start", start);
    time.put("submission", j.getSubmitTime());
    time.put("suspended", j.getSuspendedS());
    long userMs = 0;
    long sysMs = 0;
    for (AcctStep s : j.getStepsList()) {
      userMs += s.getUsage().getUserCpuMs();
      sysMs += s.getUsage().getSysCpuMs();
    }
    cpuTimes(time, userMs, sysMs);
    time.set("limit", NoVal.limit32(j.getTimeLimitMin()));
    o.set("exit_code", JobJson.exitCode(j.getExitStatus(), ended));
    o.put("extra", "");
    o.put("failed_node", "");
    o.set("flags", new JsonArray());
    o.put("group", j.getGroupName());
    JsonObject het = o.putObject("het");
    het.put("job_id", 0);
    het.set("job_offset", NoVal.unset());
    o.put("job_id", j.getJobId());
    o.put("name", j.getName());
    o.put("licenses", "");
    o.putObject("mcs").put("label", "");
    o.put("nodes", j.getNodes().isEmpty() ? "None assigned" : j.getNodes());
    o.put("partition", j.getPartition());
    o.put("hold", j.getState() == JobState.PENDING && j.getPriority() == 0);
    o.set("priority", NoVal.number(Integer.toUnsignedLong(j.getPriority())));
    o.put("qos", j.getQos());
    o.put("qosreq", "");
    JsonObject required = o.putObject("required");
    required.put("CPUs", j.getReqCpus());
    required.set("memory_per_cpu", j.getMemPerCpu() ? NoVal.number(j.getReqMemMb()) : NoVal.unset());
    required.set("memory_per_node", j.getMemPerCpu() ? NoVal.unset() : NoVal.number(j.getReqMemMb()));
    o.put("kill_request_user", j.getCancelled() ? userName.apply(j.getCancelledBy()) : "");
    o.put("restart_cnt", j.getRestartCount());
    JsonObject resv = o.putObject("reservation");
    resv.put("id", 0);
    resv.put("name", "");
    o.put("script", "");
    // Slurm: the patterns as kept ("" when not given), the paths they expand to in *_expanded;
    // records from before the patterns were kept show their paths in both.
    boolean patterns = j.hasStdOutPattern();
    o.put("stdin_expanded", !patterns ? j.getStdIn() : j.getStdInPattern().isEmpty() ? "" : j.getStdIn());
    o.put("stdout_expanded", !patterns ? j.getStdOut() : j.getStdOutPattern().isEmpty() ? "" : j.getStdOut());
    o.put("stderr_expanded", !patterns ? j.getStdErr() : j.getStdErrPattern().isEmpty() ? "" : j.getStdErr());
    o.put("stdout", patterns ? j.getStdOutPattern() : j.getStdOut());
    o.put("stderr", patterns ? j.getStdErrPattern() : j.getStdErr());
    o.put("stdin", patterns ? j.getStdInPattern() : j.getStdIn());
    JsonObject state = o.putObject("state");
    state.set("current", JsonArray.of(List.of(state(j.getState()))));
    state.put("reason", j.getReason().isEmpty() ? "None" : j.getReason());
    JsonArray steps = o.putArray("steps");
    if (withSteps) {
      for (AcctStep s : j.getStepsList()) {
        steps.add(step(j, s, userName, now));
      }
    }
    o.put("submit_line", j.getSubmitLine());
    JsonObject tres = o.putObject("tres");
    long reqMem = j.getMemPerCpu() ? j.getReqMemMb() * j.getReqCpus()
        : j.getReqMemMb() * Math.max(1, j.getReqNodes());
    tres.set("allocated", start > 0 ? jobTres(j.getNumCpus(), j.getAllocMemMb(), j.getNumNodes(),
        j.hasAllocBilling() ? j.getAllocBilling() : j.getNumCpus()) : new JsonArray());
    tres.set("requested", jobTres(j.getReqCpus(), reqMem, Math.max(1, j.getReqNodes()),
        j.hasReqBilling() ? j.getReqBilling() : j.getReqCpus()));
    o.put("used_gres", "");
    o.put("user", j.getUserName());
    // the user's default wckey, given to a job that named none, is stored as "*name"
    boolean assigned = j.getWckey().startsWith("*");
    JsonObject wckey = o.putObject("wckey");
    wckey.put("wckey", assigned ? j.getWckey().substring(1) : j.getWckey());
    JsonArray flags = new JsonArray();
    if (assigned) {
      flags.add("ASSIGNED_DEFAULT");
    }
    wckey.set("flags", flags);
    o.put("working_directory", j.getWorkDir());
    return o;
  }

  private static JsonArray jobTres(long cpus, long memMb, long nodes, long billing) {
    JsonArray a = new JsonArray();
    tres(a, "cpu", "", 1, cpus);
    tres(a, "mem", "", 2, memMb);
    tres(a, "node", "", 4, nodes);
    tres(a, "billing", "", 5, billing);
    return a;
  }

  private static void cpuTimes(JsonObject time, long userMs, long sysMs) {
    seconds(time.putObject("system"), sysMs);
    seconds(time.putObject("total"), userMs + sysMs);
    seconds(time.putObject("user"), userMs);
  }

  private static void seconds(JsonObject o, long ms) {
    o.put("seconds", ms / 1000);
    o.put("microseconds", (ms % 1000) * 1000);
  }

  /** v0.0.42_step. */
  public static JsonObject step(AcctJob j, AcctStep s, IntFunction<String> userName, long now) {
    JsonObject o = new JsonObject();
    boolean ended = s.getEndTime() > 0;
    JsonObject time = o.putObject("time");
    time.put("elapsed", s.getStartTime() == 0 ? 0 : Math.max(0, (ended ? s.getEndTime() : now) - s.getStartTime()));
    time.set("end", ended ? NoVal.number(s.getEndTime()) : NoVal.unset());
    time.set("start", NoVal.number(s.getStartTime()));
    time.put("suspended", 0);
    StepUsage u = s.getUsage();
    cpuTimes(time, u.getUserCpuMs(), u.getSysCpuMs());
    o.set("exit_code", JobJson.exitCode(s.getExitStatus(), ended));
    JsonObject nodes = o.putObject("nodes");
    nodes.put("count", s.getNumNodes());
    nodes.put("range", s.getNodes());
    nodes.set("list", JsonArray.of(s.getNodes().isEmpty() ? List.of() : Hostlist.expand(s.getNodes())));
    o.putObject("tasks").put("count", s.getNumTasks());
    o.put("pid", "");
    JsonObject cpu = o.putObject("CPU");
    JsonObject freq = cpu.putObject("requested_frequency");
    freq.set("min", NoVal.unset());
    freq.set("max", NoVal.unset());
    cpu.put("governor", "");
    o.put("kill_request_user", s.getCancelled() ? userName.apply(s.getCancelledBy()) : "");
    o.set("state", JsonArray.of(List.of(state(s.getState()))));
    JsonObject stats = o.putObject("statistics");
    stats.putObject("CPU").put("actual_frequency", u.getAveCpuFreqKhz());
    stats.putObject("energy").set("consumed", NoVal.unset());
    JsonObject step = o.putObject("step");
    step.put("id", Integer.toUnsignedString(j.getJobId()) + "." + StepIds.name(s.getStepId()));
    step.put("name", s.getName());
    o.putObject("task").put("distribution", "");
    JsonObject tres = o.putObject("tres");
    JsonObject requested = tres.putObject("requested");
    requested.set("max", usageTres(u.getMaxRssKb() * 1024, u.getMaxVmsizeKb() * 1024, u.getMaxPages()));
    requested.set("min", new JsonArray());
    requested.set("average", usageTres(u.getAveRssKb() * 1024, u.getAveVmsizeKb() * 1024, u.getAvePages()));
    requested.set("total", new JsonArray());
    JsonObject consumed = tres.putObject("consumed");
    consumed.set("max", usageTres(u.getMaxRssKb() * 1024, u.getMaxVmsizeKb() * 1024, u.getMaxPages()));
    consumed.set("min", new JsonArray());
    consumed.set("average", usageTres(u.getAveRssKb() * 1024, u.getAveVmsizeKb() * 1024, u.getAvePages()));
    JsonArray total = new JsonArray();
    tres(total, "cpu", "", 1, u.getUserCpuMs() + u.getSysCpuMs());
    consumed.set("total", total);
    tres.set("allocated", jobTres(s.getNumCpus(), s.getReqMemMb(), s.getNumNodes(), s.getNumCpus()));
    return o;
  }

  /** Usage as Slurm's step TRES: memory (RSS) and vmem in bytes, pages. */
  private static JsonArray usageTres(long rssBytes, long vmemBytes, long pages) {
    JsonArray a = new JsonArray();
    tres(a, "mem", "", 2, rssBytes);
    tres(a, "vmem", "", 7, vmemBytes);
    tres(a, "pages", "", 8, pages);
    return a;
  }

  public static String state(JobState s) {
    return s.name();
  }

  public static JsonObject assocShort(String cluster, String account, String user, String partition, int id) {
    JsonObject o = new JsonObject();
    o.put("account", account);
    o.put("cluster", cluster);
    o.put("partition", partition);
    o.put("user", user);
    o.put("id", id);
    return o;
  }

  /** v0.0.42_account, with its associations and coordinators. */
  public static JsonObject account(AcctAccount a, AssocSnapshot snap) {
    JsonObject o = new JsonObject();
    JsonArray assocs = o.putArray("associations");
    for (AcctAssoc x : snap.getAssocsList()) {
      if (x.getAccount().equals(a.getName())) {
        assocs.add(assocShort(x.getCluster(), x.getAccount(), x.getUser(), x.getPartition(), x.getId()));
      }
    }
    JsonArray coords = o.putArray("coordinators");
    for (AcctUser u : snap.getUsersList()) {
      if (u.getCoordAccountsList().contains(a.getName())) {
        JsonObject c = coords.addObject();
        c.put("name", u.getName());
        c.put("direct", true);
      }
    }
    o.put("description", a.getDescription());
    o.put("name", a.getName());
    o.put("organization", a.getOrganization());
    o.set("flags", new JsonArray());
    return o;
  }

  /** A user's administrator_level as Slurm names it. */
  public static String adminLevel(AcctUser u) {
    return switch (u.getAdminLevel()) {
      case 2 -> "Operator";
      case 3 -> "Administrator";
      case 0 -> "Not Set";
      default -> "None";
    };
  }

  /** v0.0.42_user, with its associations and the accounts it coordinates. */
  public static JsonObject user(AcctUser u, AssocSnapshot snap) {
    JsonObject o = new JsonObject();
    o.set("administrator_level", JsonArray.of(List.of(adminLevel(u))));
    JsonArray assocs = o.putArray("associations");
    for (AcctAssoc x : snap.getAssocsList()) {
      if (x.getUser().equals(u.getName())) {
        assocs.add(assocShort(x.getCluster(), x.getAccount(), x.getUser(), x.getPartition(), x.getId()));
      }
    }
    JsonArray coords = o.putArray("coordinators");
    for (String acct : u.getCoordAccountsList()) {
      JsonObject c = coords.addObject();
      c.put("name", acct);
      c.put("direct", true);
    }
    JsonObject def = o.putObject("default");
    def.put("account", u.getDefaultAccount());
    def.put("wckey", "");
    o.set("flags", new JsonArray());
    o.put("name", u.getName());
    o.put("old_name", "");
    o.putArray("wckeys");
    return o;
  }

  private static JsonObject limit(boolean present, int value) {
    return present ? NoVal.limit32(value) : NoVal.infinite();
  }

  /** v0.0.42_assoc. */
  public static JsonObject assoc(AcctAssoc x, AssocSnapshot snap) {
    JsonObject o = new JsonObject();
    AcctLimits l = x.getLimits();
    o.putArray("accounting");
    o.put("account", x.getAccount());
    o.put("cluster", x.getCluster());
    o.put("comment", "");
    o.putObject("default").put("qos", x.getDefaultQos());
    o.set("flags", new JsonArray());
    JsonObject max = o.putObject("max");
    JsonObject jobs = max.putObject("jobs");
    JsonObject per = jobs.putObject("per");
    per.set("count", limit(l.hasMaxJobs(), l.getMaxJobs()));
    per.set("accruing", NoVal.infinite());
    per.set("submitted", limit(l.hasMaxSubmitJobs(), l.getMaxSubmitJobs()));
    per.set("wall_clock", limit(l.hasMaxWallMinutes(), l.getMaxWallMinutes()));
    jobs.set("active", limit(l.hasGrpJobs(), l.getGrpJobs()));
    jobs.set("accruing", NoVal.infinite());
    jobs.set("total", limit(l.hasGrpSubmitJobs(), l.getGrpSubmitJobs()));
    JsonObject tres = max.putObject("tres");
    tres.set("total", tresList(l.getGrpTres()));
    JsonObject group = tres.putObject("group");
    group.putArray("minutes");
    group.putArray("active");
    JsonObject minutes = tres.putObject("minutes");
    minutes.putArray("total");
    minutes.putObject("per").putArray("job");
    JsonObject tresPer = tres.putObject("per");
    tresPer.set("job", tresList(l.getMaxTresPerJob()));
    tresPer.putArray("node");
    max.putObject("per").putObject("account").set("wall_clock", limit(l.hasGrpWallMinutes(), l.getGrpWallMinutes()));
    o.put("id", x.getId());
    boolean isDefault = false;
    if (!x.getUser().isEmpty()) {
      for (AcctUser u : snap.getUsersList()) {
        if (u.getName().equals(x.getUser())) {
          isDefault = u.getDefaultAccount().equals(x.getAccount());
        }
      }
    }
    o.put("is_default", isDefault);
    o.put("lineage", lineage(x, snap));
    o.putObject("min").set("priority_threshold", NoVal.infinite());
    o.put("parent_account", x.getParentAccount());
    o.put("partition", x.getPartition());
    o.set("priority", limit(l.hasPriority(), l.getPriority()));
    o.set("qos", JsonArray.of(effectiveQos(x, snap)));
    o.put("shares_raw", l.hasShares() ? Integer.toUnsignedLong(l.getShares()) : 1);
    o.put("user", x.getUser());
    return o;
  }

  /** The QOS an association has: its own list, or its parent's when it sets none. */
  private static List<String> effectiveQos(AcctAssoc x, AssocSnapshot snap) {
    AcctAssoc at = x;
    for (int depth = 0; at != null && depth < 64; depth++) {
      if (at.getQosSet()) {
        return at.getQosList();
      }
      at = parent(at, snap);
    }
    return List.of();
  }

  private static AcctAssoc parent(AcctAssoc x, AssocSnapshot snap) {
    String parentAccount = x.getUser().isEmpty() ? x.getParentAccount() : x.getAccount();
    if (parentAccount.isEmpty() || (x.getUser().isEmpty() && x.getAccount().equals("root"))) {
      return null;
    }
    for (AcctAssoc p : snap.getAssocsList()) {
      if (p.getCluster().equals(x.getCluster()) && p.getAccount().equals(parentAccount) && p.getUser().isEmpty()
          && p.getPartition().isEmpty()) {
        return p;
      }
    }
    return null;
  }

  /**
   * Slurm's lineage: the path of accounts below root, users as "0-NAME" ("/physics/0-alice/";
   * root's own "/", root's user "/0-root/").
   */
  private static String lineage(AcctAssoc x, AssocSnapshot snap) {
    StringBuilder path = new StringBuilder();
    if (!x.getUser().isEmpty()) {
      path.insert(0, "0-" + x.getUser() + (x.getPartition().isEmpty() ? "" : "/" + x.getPartition()) + "/");
    }
    AcctAssoc at = x.getUser().isEmpty() ? x : parent(x, snap);
    for (int depth = 0; at != null && depth < 64; depth++) {
      AcctAssoc up = parent(at, snap);
      if (up != null) { // the tree's root (root) is the leading "/"
        path.insert(0, at.getAccount() + "/");
      }
      at = up;
    }
    return "/" + path;
  }

  /** v0.0.42_qos. */
  public static JsonObject qos(AcctQos q) {
    JsonObject o = new JsonObject();
    o.put("description", q.getDescription());
    JsonArray flags = o.putArray("flags");
    q.getFlagsList().forEach(f -> flags.add(f.toUpperCase(Locale.ROOT)));
    o.put("id", q.getId());
    JsonObject limits = o.putObject("limits");
    limits.put("grace_time", q.getGraceTime());
    JsonObject max = limits.putObject("max");
    JsonObject active = max.putObject("active_jobs");
    active.set("accruing", NoVal.infinite());
    active.set("count", limit(q.hasGrpJobs(), q.getGrpJobs()));
    JsonObject jobs = max.putObject("jobs");
    jobs.set("count", limit(q.hasGrpSubmitJobs(), q.getGrpSubmitJobs()));
    JsonObject activePer = jobs.putObject("active_jobs").putObject("per");
    activePer.set("account", NoVal.infinite());
    activePer.set("user", limit(q.hasMaxJobsPerUser(), q.getMaxJobsPerUser()));
    JsonObject jobsPer = jobs.putObject("per");
    jobsPer.set("account", NoVal.infinite());
    jobsPer.set("user", limit(q.hasMaxSubmitJobsPerUser(), q.getMaxSubmitJobsPerUser()));
    JsonObject tres = max.putObject("tres");
    tres.set("total", tresList(q.getGrpTres()));
    JsonObject minutes = tres.putObject("minutes");
    minutes.putArray("total");
    JsonObject minutesPer = minutes.putObject("per");
    minutesPer.putArray("qos");
    minutesPer.putArray("job");
    minutesPer.putArray("account");
    minutesPer.putArray("user");
    JsonObject tresPer = tres.putObject("per");
    tresPer.putArray("account");
    tresPer.set("job", tresList(q.getMaxTresPerJob()));
    tresPer.putArray("node");
    tresPer.set("user", tresList(q.getMaxTresPerUser()));
    JsonObject wallPer = max.putObject("wall_clock").putObject("per");
    wallPer.set("qos", NoVal.infinite());
    wallPer.set("job", limit(q.hasMaxWallMinutes(), q.getMaxWallMinutes()));
    JsonObject accruingPer = max.putObject("accruing").putObject("per");
    accruingPer.set("account", NoVal.infinite());
    accruingPer.set("user", NoVal.infinite());
    limits.set("factor", NoVal.unset());
    JsonObject min = limits.putObject("min");
    min.set("priority_threshold", NoVal.infinite());
    min.putObject("tres").putObject("per").putArray("job");
    o.put("name", q.getName());
    JsonObject preempt = o.putObject("preempt");
    preempt.set("list", JsonArray.of(q.getPreemptList()));
    preempt.set("mode", JsonArray.of(List.of(q.getPreemptMode().isEmpty() ? "DISABLED"
        : q.getPreemptMode().toUpperCase(Locale.ROOT))));
    preempt.set("exempt_time", NoVal.unset());
    o.set("priority", NoVal.number(Integer.toUnsignedLong(q.getPriority())));
    o.set("usage_factor", NoVal.number(q.getUsageFactor() == 0 ? 1.0 : q.getUsageFactor()));
    o.set("usage_threshold", NoVal.unset());
    return o;
  }

  /** v0.0.42_cluster_rec. */
  public static JsonObject cluster(AcctCluster c, AssocSnapshot snap) {
    JsonObject o = new JsonObject();
    JsonObject ctl = o.putObject("controller");
    ctl.put("host", c.getControlHost());
    ctl.put("port", c.getControlPort());
    o.set("flags", new JsonArray());
    o.put("name", c.getName());
    o.put("nodes", "");
    o.put("select_plugin", "");
    int rootId = snap.getAssocsList().stream().filter(a -> a.getCluster().equals(c.getName())
        && a.getAccount().equals("root") && a.getUser().isEmpty()).mapToInt(AcctAssoc::getId).findFirst().orElse(0);
    o.putObject("associations").set("root", assocShort(c.getName(), "root", "", "", rootId));
    o.put("rpc_version", c.getRpcVersion());
    o.set("tres", new JsonArray());
    return o;
  }
}
