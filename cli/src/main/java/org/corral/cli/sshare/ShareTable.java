package org.corral.cli.sshare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.corral.cli.format.Cell;
import org.corral.protocol.msg.ShareRow;

/**
 * sshare's columns and Slurm's print_fields as sshare drives them: fixed-width columns (negative
 * width: left-aligned) each followed by a space, text cut with '+', numbers never cut, headers cut
 * silently; -p ends every field with '|', -P all but the last. Accounts are named with one space
 * of indentation per level of the tree as far as it was printed: an account whose parent was not
 * printed starts again at the left (sshare -A, -U).
 */
final class ShareTable {
  enum Style { FIXED, PARSABLE, PARSABLE2 }

  private enum Kind { TEXT, NUMBER, TRES }

  /** A column: Slurm's name, default width, how its value prints (null: empty). */
  private record Field(String name, int width, Kind kind, Function<Printed, String> value) {
    Field withWidth(int w) {
      return new Field(name, w, kind, value);
    }
  }

  /** A row with the name the tree gives its account. */
  private record Printed(ShareRow row, String treeName, boolean fairTree) {}

  private static final String ZERO_TRES = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0";

  // In Slurm 22.05's order: names given to -o match the first field they begin.
  private static final List<Field> FIELDS = List.of(
      new Field("Account", -20, Kind.TEXT, p -> p.treeName()),
      new Field("Cluster", 10, Kind.TEXT, p -> p.row().getCluster()),
      new Field("EffectvUsage", 13, Kind.NUMBER, p -> f(p.row().getEffectiveUsage())),
      new Field("FairShare", 10, Kind.NUMBER, p -> p.row().hasFairshare() ? f(p.row().getFairshare()) : null),
      new Field("GrpTRESMins", 30, Kind.TRES, p -> p.row().getGrpTresMins()),
      new Field("GrpTRESRaw", 30, Kind.TRES, p -> ZERO_TRES),
      new Field("ID", 6, Kind.NUMBER, p -> String.valueOf(p.row().getAssocId())),
      new Field("LevelFS", 10, Kind.NUMBER, p -> p.row().hasLevelFs() ? f(p.row().getLevelFs()) : null),
      new Field("NormShares", 11, Kind.NUMBER, p -> f(p.row().getNormShares())),
      new Field("NormUsage", 11, Kind.NUMBER, p -> p.row().hasNormUsage() ? f(p.row().getNormUsage()) : null),
      new Field("Partition", 12, Kind.TEXT, p -> blank(p.row().getPartition())),
      new Field("RawShares", 10, Kind.NUMBER, p -> p.row().hasRawShares()
          ? Integer.toUnsignedString(p.row().getRawShares()) : null),
      new Field("RawUsage", 11, Kind.NUMBER, p -> String.valueOf((long) p.row().getRawUsage())),
      new Field("TRESRunMins", 30, Kind.TRES, p -> p.row().getTresRunMins().isEmpty() ? ZERO_TRES
          : p.row().getTresRunMins()),
      new Field("User", 10, Kind.TEXT, p -> blank(p.row().getUser())));

  static final class UnknownField extends Exception {
    private static final long serialVersionUID = 1L;

    UnknownField(String field) {
      super(field, null, false, false);
    }
  }

  private final List<Field> fields;
  private final boolean fairTree;

  private ShareTable(List<Field> fields, boolean fairTree) {
    this.fields = fields;
    this.fairTree = fairTree;
  }

  /** The format sshare uses without -o. */
  static String defaultFormat(boolean fairTree, boolean longFormat, boolean partitions) {
    String user = partitions ? "A,User,P," : "A,User,";
    if (!longFormat) {
      return user + "RawShares,NormShares,RawUsage,Eff,Fairshare";
    }
    return user + "RawShares,NormShares,RawUsage,NormUsage,Eff,Fairshare,"
        + (fairTree ? "LevelFS," : "") + "GrpTRESMins,TRESRunMins";
  }

  /** The table for a comma-separated list of (prefixes of) field names, each with an optional %WIDTH. */
  static ShareTable of(String format, boolean fairTree) throws UnknownField {
    List<Field> out = new ArrayList<>();
    for (String item : format.toLowerCase(Locale.ROOT).split(",")) {
      String name = item;
      int width = 0;
      int pct = item.indexOf('%');
      if (pct >= 0) {
        name = item.substring(0, pct);
        width = atoi(item.substring(pct + 1));
      }
      Field found = null;
      for (Field f : FIELDS) {
        if (f.name().toLowerCase(Locale.ROOT).startsWith(name)) {
          found = f;
          break;
        }
      }
      if (found == null) {
        throw new UnknownField(name);
      }
      out.add(width != 0 ? found.withWidth(width) : found);
    }
    return new ShareTable(out, fairTree);
  }

  /** Slurm's -e: the field names four to a line. */
  static String helpFormat() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < FIELDS.size(); i++) {
      if ((i & 3) != 0) {
        sb.append(' ');
      } else if (i > 0) {
        sb.append('\n');
      }
      sb.append(String.format("%-17s", FIELDS.get(i).name()));
    }
    return sb.append('\n').toString();
  }

  String render(List<ShareRow> rows, Style style, boolean header, boolean usersOnly) {
    StringBuilder sb = new StringBuilder();
    if (header) {
      StringBuilder dashes = new StringBuilder();
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        int w = Math.abs(f.width());
        if (style == Style.FIXED) {
          sb.append(Cell.fit(f.name(), w, f.width() > 0)).append(' ');
          dashes.append("-".repeat(w)).append(' ');
        } else {
          sb.append(f.name()).append(end(i, style));
        }
      }
      sb.append('\n');
      if (style == Style.FIXED) {
        sb.append(dashes).append('\n');
      }
    }
    List<TreeName> tree = new ArrayList<>();
    for (ShareRow r : rows) {
      if (usersOnly && r.getUser().isEmpty()) {
        continue;
      }
      Printed p = null;
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        if (p == null) {
          boolean needsTree = fields.stream().anyMatch(x -> x.name().equals("Account"));
          p = new Printed(r, needsTree ? treeName(tree, r) : "", fairTree);
        }
        sb.append(cell(f, f.value().apply(p), style, i));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private String cell(Field f, String v, Style style, int i) {
    if (style != Style.FIXED) {
      return (v == null ? "" : v) + end(i, style);
    }
    int w = Math.abs(f.width());
    String text = v == null ? "" : v;
    if (f.kind() != Kind.NUMBER && text.length() > w) {
      text = text.substring(0, w - 1) + "+";
    }
    if (text.length() >= w) {
      return text + " ";
    }
    return Cell.fit(text, w, f.width() > 0) + " ";
  }

  private String end(int i, Style style) {
    return style == Style.PARSABLE2 && i == fields.size() - 1 ? "" : "|";
  }

  /** slurmdb_tree_name_get: what was printed so far decides the indentation. */
  private record TreeName(String name, String spaces, boolean user) {}

  private static String treeName(List<TreeName> tree, ShareRow r) {
    boolean user = !r.getUser().isEmpty();
    String name = user ? "|" + r.getUser() : r.getAccount();
    String parent = r.getParent();
    TreeName parentEntry = null;
    for (TreeName t : tree) {
      if (t.user()) {
        continue;
      }
      if (t.name().equals(name)) {
        if (!parent.isEmpty()) {
          return t.spaces() + t.name();
        }
        break;
      } else if (!parent.isEmpty() && t.name().equals(parent)) {
        parentEntry = t;
      }
    }
    String spaces = parentEntry == null ? "" : " " + parentEntry.spaces();
    tree.add(new TreeName(name, spaces, user));
    return spaces + (user ? parent : name);
  }

  private static String blank(String s) {
    return s.isEmpty() ? null : s;
  }

  /** As C's %f. */
  private static String f(double v) {
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    return Double.isNaN(v) ? "nan" : String.format(Locale.ROOT, "%f", v);
  }

  private static int atoi(String s) {
    int i = 0;
    int sign = 1;
    if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      sign = s.charAt(i++) == '-' ? -1 : 1;
    }
    long n = 0;
    while (i < s.length() && Character.isDigit(s.charAt(i)) && n < Integer.MAX_VALUE) {
      n = n * 10 + (s.charAt(i++) - '0');
    }
    return (int) (sign * Math.min(n, Integer.MAX_VALUE));
  }
}
