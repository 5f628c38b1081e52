package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;

/** Association and QOS limits given as KEY=VALUE: applying them and printing them Slurm's way. */
final class Limits {
  private Limits() {}

  static final class BadValue extends Exception {
    private static final long serialVersionUID = 1L;

    /** An error line printed before the message (Slurm's library complaint), or null. */
    final String before;
    /** Printed on standard output (as sacctmgr prints some complaints), not standard error. */
    final boolean onOut;

    BadValue(String m) {
      this(null, m);
    }

    BadValue(String before, String m) {
      this(before, m, false);
    }

    BadValue(String before, String m, boolean onOut) {
      super(m, null, false, false);
      this.before = before;
      this.onOut = onOut;
    }
  }

  /** The QOS flags in the order sacctmgr lists and shows them. */
  static final List<String> QOS_FLAGS = List.of("DenyOnLimit", "EnforceUsageThreshold", "NoReserve",
      "PartitionMaxNodes", "PartitionMinNodes", "OverPartQOS", "PartitionTimeLimit", "RequiresReservation",
      "NoDecay", "UsageFactorSafe");

  /**
   * Flags= (=, += or -=) on a QOS's flags: every flag whose name the value holds, in any case,
   * counts (sacctmgr took "noreserve,x" as NoReserve); none at all is sacctmgr's complaint on
   * standard output; "-1" clears them. The result in sacctmgr's order.
   */
  static List<String> qosFlags(List<String> current, Args.Opt o) throws BadValue {
    java.util.Set<String> now = new java.util.HashSet<>();
    current.forEach(c -> QOS_FLAGS.stream().filter(c::equalsIgnoreCase).forEach(now::add));
    if (o.value().trim().equals("-1")) {
      return List.of();
    }
    String v = o.value().toLowerCase(java.util.Locale.ROOT);
    List<String> named = QOS_FLAGS.stream().filter(f -> v.contains(f.toLowerCase(java.util.Locale.ROOT))).toList();
    if (named.isEmpty()) {
      throw new BadValue(null, "Unknown QOS flag used in:\n  '" + o.value() + "'\n Valid QOS flags are\n  '"
          + String.join(",", QOS_FLAGS) + "'", true);
    }
    switch (o.op()) {
      case "+=" -> now.addAll(named);
      case "-=" -> now.removeAll(named);
      default -> {
        now.clear();
        now.addAll(named);
      }
    }
    return QOS_FLAGS.stream().filter(now::contains).toList();
  }

  static boolean isAssocKey(String k) {
    return List.of("fairshare", "grpjobs", "grpsubmitjobs", "grptres", "grptresmins", "grptresrunmins", "grpwall",
        "maxjobs",
        "maxsubmitjobs", "maxtresperjob", "maxtresmins", "maxwall", "priority", "qos", "defaultqos").contains(k);
  }

  /** -1 clears; otherwise a non-negative count. */
  static Integer count(Args.Opt o) throws BadValue {
    try {
      long v = Long.parseLong(o.value().trim());
      if (v < -1 || v > 0xfffffffeL) {
        throw new BadValue("Bad " + o.key() + " value: " + o.value());
      }
      return v == -1 ? null : (int) v;
    } catch (NumberFormatException e) {
      throw new BadValue("Bad " + o.key() + " value: " + o.value());
    }
  }

  /** Slurm's time_str2mins: MIN, MIN:SEC, HH:MM:SS, D-HH[:MM[:SS]]; -1/UNLIMITED clears. */
  static Integer minutes(Args.Opt o) throws BadValue {
    String s = o.value().trim();
    if (s.equals("-1") || s.equalsIgnoreCase("unlimited") || s.equalsIgnoreCase("infinite")) {
      return null;
    }
    try {
      long days = 0;
      int dash = s.indexOf('-');
      String rest = s;
      if (dash > 0) {
        days = Long.parseLong(s.substring(0, dash));
        rest = s.substring(dash + 1);
      }
      String[] p = rest.split(":");
      long h = 0;
      long m;
      long sec = 0;
      if (dash > 0) {
        h = Long.parseLong(p[0]);
        m = p.length > 1 ? Long.parseLong(p[1]) : 0;
        sec = p.length > 2 ? Long.parseLong(p[2]) : 0;
      } else if (p.length == 1) {
        m = Long.parseLong(p[0]);
      } else if (p.length == 2) {
        m = Long.parseLong(p[0]);
        sec = Long.parseLong(p[1]);
      } else {
        h = Long.parseLong(p[0]);
        m = Long.parseLong(p[1]);
        sec = Long.parseLong(p[2]);
      }
      return (int) (days * 1440 + h * 60 + m + (sec + 59) / 60);
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new BadValue("Bad MaxWall time format: " + o.value());
    }
  }

  /**
   * Applies the association settings among {@code opts} to {@code a}; QOS+= and QOS-= start from
   * {@code inheritedQos} when the association has no list of its own.
   */
  static void apply(AcctAssoc.Builder a, List<Args.Opt> opts, List<String> inheritedQos) throws BadValue {
    AcctLimits.Builder l = a.getLimits().toBuilder();
    for (Args.Opt o : opts) {
      switch (o.key()) {
        case "fairshare" -> {
          Integer v = count(o);
          if (v == null) {
            l.clearShares();
          } else {
            l.setShares(v);
          }
        }
        case "grpjobs" -> set(count(o), l::setGrpJobs, l::clearGrpJobs);
        case "grpsubmitjobs" -> set(count(o), l::setGrpSubmitJobs, l::clearGrpSubmitJobs);
        case "maxjobs" -> set(count(o), l::setMaxJobs, l::clearMaxJobs);
        case "maxsubmitjobs" -> set(count(o), l::setMaxSubmitJobs, l::clearMaxSubmitJobs);
        case "priority" -> set(count(o), l::setPriority, l::clearPriority);
        case "maxwall" -> set(minutes(o), l::setMaxWallMinutes, l::clearMaxWallMinutes);
        case "grpwall" -> set(minutes(o), l::setGrpWallMinutes, l::clearGrpWallMinutes);
        case "grptres" -> l.setGrpTres(TresList.merge(l.getGrpTres(), o, "GrpTRES"));
        case "grptresmins" -> l.setGrpTresMins(TresList.merge(l.getGrpTresMins(), o, "GrpTRESMins"));
        case "grptresrunmins" -> l.setGrpTresRunMins(TresList.merge(l.getGrpTresRunMins(), o, "GrpTRESRunMins"));
        case "maxtresperjob" -> l.setMaxTresPerJob(TresList.merge(l.getMaxTresPerJob(), o, "MaxTRES"));
        case "maxtresmins" -> l.setMaxTresMinsPerJob(TresList.merge(l.getMaxTresMinsPerJob(), o, "MaxTRESMins"));
        case "qos" -> {
          TreeSet<String> q = new TreeSet<>(a.getQosSet() ? a.getQosList() : inheritedQos);
          switch (o.op()) {
            case "+=" -> q.addAll(o.list());
            case "-=" -> o.list().forEach(q::remove);
            default -> {
              q.clear();
              q.addAll(o.list());
            }
          }
          a.setQosSet(true).clearQos().addAllQos(q);
        }
        case "defaultqos" -> a.setDefaultQos(o.value().equals("-1") ? "" : o.value());
        default -> { }
      }
    }
    a.setLimits(l);
  }

  private static void set(Integer v, java.util.function.IntFunction<?> set, Runnable clear) {
    if (v == null) {
      clear.run();
    } else {
      set.apply(v);
    }
  }

  /** Slurm's sacctmgr_print_assoc_limits for the settings given (and the parent, when set). */
  static List<String> assocLines(List<Args.Opt> opts, String parent) throws BadValue {
    List<String> out = new ArrayList<>();
    String[][] order = {{"fairshare", "Fairshare"}, {"grpjobs", "GrpJobs"}, {"grpsubmitjobs", "GrpSubmitJobs"},
        {"grptres", "GrpTRES"}, {"grptresmins", "GrpTRESMins"}, {"grptresrunmins", "GrpTRESRunMins"},
        {"grpwall", "GrpWall"}, {"maxjobs", "MaxJobs"},
        {"maxsubmitjobs", "MaxSubmitJobs"}, {"maxtresperjob", "MaxTRESPerJob"}, {"maxtresmins", "MaxTRESMins"},
        {"maxwall", "MaxWall"}};
    for (String[] k : order) {
      for (Args.Opt o : opts) {
        if (o.key().equals(k[0])) {
          out.add("  " + Table.pad(k[1], 14, true) + "= " + shown(o));
        }
      }
    }
    if (parent != null) {
      out.add("  Parent        = " + parent);
    }
    for (Args.Opt o : opts) {
      if (o.key().equals("priority")) {
        out.add("  Priority      = " + shown(o));
      }
    }
    for (Args.Opt o : opts) {
      if (o.key().equals("qos")) {
        out.add("  QOS           = " + (o.list().isEmpty() ? "" : String.join(",", new TreeSet<>(o.list()))));
      }
    }
    for (Args.Opt o : opts) {
      if (o.key().equals("defaultqos")) {
        out.add("  Default QOS   = " + o.value());
      }
    }
    return out;
  }

  private static String shown(Args.Opt o) throws BadValue {
    return switch (o.key()) {
      case "maxwall", "grpwall" -> {
        Integer m = minutes(o);
        yield m == null ? "NONE" : Columns.wall(true, m);
      }
      case "grptres", "maxtresperjob", "grptresmins", "grptresrunmins", "maxtresmins" -> tresShown(o.value());
      default -> count(o) == null ? "NONE" : Integer.toString(count(o));
    };
  }

  /** A TRES list as sacctmgr prints a setting: a TRES set to -1 (cleared) as NONE ("cpu=NONE"). */
  static String tresShown(String value) {
    if (value.equals("-1")) {
      return "NONE";
    }
    return java.util.Arrays.stream(value.split(",", -1)).map(t -> t.endsWith("=-1") ? t.substring(0, t.length() - 2)
        + "NONE" : t).collect(java.util.stream.Collectors.joining(","));
  }

  /**
   * The order sacctmgr prints a new QOS's settings in: by name, except that MaxTRESMins comes
   * after the other MaxTRES limits (as the reference printed them).
   */
  static final java.util.Comparator<Args.Opt> QOS_ORDER =
      java.util.Comparator.comparing(o -> o.key().equals("maxtresmins") ? "maxtresq" : o.key());

  private static final java.util.Map<String, String> QOS_TRES_LABELS = java.util.Map.of("maxtresperjob",
      "MaxTRESPerJob", "maxtresperuser", "MaxTRESPerUser", "grptres", "GrpTRES", "grptresmins", "GrpTRESMins",
      "grptresrunmins", "GrpTRESRunMins", "maxtresmins", "MaxTRESMins");

  /** A QOS TRES limit changed by {@code o} (only the TRES it names). */
  private static void setQosTres(AcctQos.Builder q, Args.Opt o, String label) throws BadValue {
    switch (o.key()) {
      case "maxtresperjob" -> q.setMaxTresPerJob(TresList.merge(q.getMaxTresPerJob(), o, "MaxTRES"));
      case "maxtresperuser" -> q.setMaxTresPerUser(TresList.merge(q.getMaxTresPerUser(), o, label));
      case "grptres" -> q.setGrpTres(TresList.merge(q.getGrpTres(), o, label));
      case "grptresmins" -> q.setGrpTresMins(TresList.merge(q.getGrpTresMins(), o, label));
      case "grptresrunmins" -> q.setGrpTresRunMins(TresList.merge(q.getGrpTresRunMins(), o, label));
      default -> q.setMaxTresMinsPerJob(TresList.merge(q.getMaxTresMinsPerJob(), o, label));
    }
  }

  /** Applies QOS settings; returns the lines Slurm prints for them ("  MaxWall  ... = 01:00:00"). */
  static List<String> applyQos(AcctQos.Builder q, List<Args.Opt> opts) throws BadValue {
    List<String> out = new ArrayList<>();
    for (Args.Opt o : opts) {
      String label;
      String shown;
      switch (o.key()) {
        case "description" -> {
          q.setDescription(o.value());
          continue;
        }
        case "priority" -> {
          Integer v = count(o);
          q.setPriority(v == null ? 0 : v);
          label = "Priority";
          shown = v == null ? "NONE" : v.toString();
        }
        case "maxwall" -> {
          Integer v = minutes(o);
          set(v, q::setMaxWallMinutes, q::clearMaxWallMinutes);
          label = "MaxWall";
          shown = v == null ? "NONE" : Columns.wall(true, v);
        }
        case "maxjobsperuser" -> {
          Integer v = count(o);
          set(v, q::setMaxJobsPerUser, q::clearMaxJobsPerUser);
          label = "MaxJobsPU";
          shown = v == null ? "NONE" : v.toString();
        }
        case "maxsubmitjobsperuser" -> {
          Integer v = count(o);
          set(v, q::setMaxSubmitJobsPerUser, q::clearMaxSubmitJobsPerUser);
          label = "MaxSubmitJobsPU";
          shown = v == null ? "NONE" : v.toString();
        }
        case "grpjobs" -> {
          Integer v = count(o);
          set(v, q::setGrpJobs, q::clearGrpJobs);
          label = "GrpJobs";
          shown = v == null ? "NONE" : v.toString();
        }
        case "grpsubmitjobs" -> {
          Integer v = count(o);
          set(v, q::setGrpSubmitJobs, q::clearGrpSubmitJobs);
          label = "GrpSubmitJobs";
          shown = v == null ? "NONE" : v.toString();
        }
        case "maxtresperjob", "maxtresperuser", "grptres", "grptresmins", "grptresrunmins", "maxtresmins" -> {
          label = QOS_TRES_LABELS.get(o.key());
          shown = tresShown(o.value());
          setQosTres(q, o, label);
        }
        case "grpwall" -> {
          Integer v = minutes(o);
          set(v, q::setGrpWallMinutes, q::clearGrpWallMinutes);
          label = "GrpWall";
          shown = v == null ? "NONE" : Columns.wall(true, v);
        }
        case "flags" -> {
          List<String> flags = qosFlags(q.getFlagsList(), o);
          q.clearFlags().addAllFlags(flags);
          label = "Flags";
          shown = String.join(",", flags);
        }
        case "preemptmode" -> {
          q.setPreemptMode(o.value().equalsIgnoreCase("cluster") ? "" : o.value().toUpperCase(java.util.Locale.ROOT));
          label = "PreemptMode";
          shown = o.value().toUpperCase(java.util.Locale.ROOT);
        }
        case "preempt" -> {
          TreeSet<String> p = new TreeSet<>(q.getPreemptList());
          if (o.op().equals("+=")) {
            p.addAll(o.list());
          } else if (o.op().equals("-=")) {
            o.list().forEach(p::remove);
          } else {
            p.clear();
            p.addAll(o.list());
          }
          q.clearPreempt().addAllPreempt(p);
          label = "Preempt";
          shown = String.join(",", p);
        }
        case "usagefactor" -> {
          try {
            q.setUsageFactor(Double.parseDouble(o.value()));
          } catch (NumberFormatException e) {
            throw new BadValue("Bad UsageFactor value: " + o.value());
          }
          label = "UsageFactor";
          shown = String.format(java.util.Locale.ROOT, "%f", q.getUsageFactor());
        }
        case "gracetime" -> {
          Integer v = minutes(o);
          q.setGraceTime(v == null ? 0 : v * 60);
          label = "GraceTime";
          shown = Columns.wall(true, v == null ? 0 : v);
        }
        default -> throw new BadValue("Unknown option: " + o.key() + o.op() + o.value());
      }
      out.add("  " + Table.pad(label, 24, true) + " = " + shown);
    }
    return out;
  }
}
