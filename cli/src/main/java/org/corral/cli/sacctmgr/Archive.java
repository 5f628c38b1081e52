package org.corral.cli.sacctmgr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.ArchiveDumpRequest;
import org.corral.protocol.msg.ArchiveLoadRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code sacctmgr archive dump [SPECS]} and {@code sacctmgr archive load [File=]FILE}, parsed and
 * answered as Slurm 22.05's sacctmgr does (its messages, streams and exit codes, golden cases
 * ar_*). slurmdbd does the work; the directory of a dump is checked here, on the calling host.
 */
final class Archive {
  private final Cli cli;
  private final boolean immediate;
  private final Confirmation confirm;

  /** Asks a yes/no question as Slurm's commit_check does; true for yes. */
  interface Confirmation {
    boolean ask(String question);
  }

  Archive(Cli cli, boolean immediate, Confirmation confirm) {
    this.cli = cli;
    this.immediate = immediate;
    this.confirm = confirm;
  }

  int run(List<String> words) throws IOException {
    String sub = words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT);
    List<String> rest = words.isEmpty() ? List.of() : words.subList(1, words.size());
    if (!sub.isEmpty() && "dump".startsWith(sub)) {
      return dump(rest);
    }
    if (!sub.isEmpty() && "load".startsWith(sub)) {
      return load(rest);
    }
    cli.err().print("No valid entity in archive command\nInput line must include, \"Dump\", or \"load\"\n");
    return 1;
  }

  private static boolean is(String word, String name, int min) {
    return word.length() >= Math.min(min, name.length()) && name.toLowerCase(Locale.ROOT).startsWith(word);
  }

  private int dump(List<String> args) throws IOException {
    ArchiveDumpRequest.Builder r = ArchiveDumpRequest.newBuilder();
    String script = null;
    boolean bad = false;
    for (String a : args) {
      int eq = a.indexOf('=');
      String key = (eq < 0 ? a : a.substring(0, eq)).toLowerCase(Locale.ROOT);
      String val = eq < 0 ? "" : a.substring(eq + 1);
      if (eq < 0 && is(key, "where", 5)) {
        continue;
      } else if (eq < 0 && is(key, "events", 1)) {
        r.setEvents(true);
      } else if (eq < 0 && is(key, "jobs", 1)) {
        r.setJobs(true);
      } else if (eq < 0 && is(key, "reservations", 1)) {
        continue; // no reservation records kept
      } else if (eq < 0 && is(key, "steps", 1)) {
        r.setSteps(true);
      } else if (eq < 0 && is(key, "suspend", 1)) {
        r.setSuspend(true);
      } else if (eq < 0 || is(key, "clusters", 1)) {
        for (String c : val.isEmpty() && eq < 0 ? a.split(",") : val.split(",")) {
          if (!c.isEmpty()) {
            r.addClusters(c);
          }
        }
      } else if (is(key, "directory", 2)) {
        r.setDirectory(unquote(val));
      } else if (is(key, "script", 2)) {
        script = unquote(val);
      } else if (is(key, "accounts", 2) || is(key, "associations", 2) || is(key, "end", 1) || is(key, "gid", 2)
          || is(key, "jobs", 1) || is(key, "partitions", 2) || is(key, "start", 2) || is(key, "users", 1)) {
        continue; // job conditions: slurmdbd's archive, like Slurm's, selects by cluster and age only
      } else if (purgeOption(key) != null) {
        String name = purgeOption(key);
        String age = name.endsWith("after") ? purge(val) : months(a.substring(0, eq), val);
        if (age == null) {
          bad = true;
        } else {
          setAge(r, name.substring("purge".length()), age);
        }
      } else {
        cli.err().println(" Unknown condition: " + a);
        bad = true;
      }
    }
    if (bad) {
      return 1;
    }
    if (!r.getDirectory().isEmpty() && !checkDir(cli.caller().resolve(r.getDirectory()))) {
      return 1;
    }
    if (script != null && !checkScript(cli.caller().resolve(script))) {
      return 1;
    }
    if (!immediate && !confirm.ask("This may result in loss of accounting database records (if Purge* options "
        + "enabled).\nAre you sure you want to continue?")) {
      cli.out().println(" Changes Discarded");
      return 0;
    }
    if (script != null) {
      // an archive script replaces the flat files in Slurm; Corral writes only its own files
      cli.err().println(" Problem dumping archive: " + SlurmError.NOT_SUPPORTED.message());
      return 1;
    }
    Response resp = cli.accounting().get().call(Request.newBuilder().setArchiveDump(r).build());
    if (resp.getErrorCode() != 0) {
      return problem(resp, " Problem dumping archive: ");
    }
    cli.error("accounting_storage/slurmdbd: jobacct_storage_p_archive: SUCCESS");
    return 0;
  }

  /** The Purge* option a key names (Slurm's shortest forms: 10 letters for *After, 6 or 7 for *Months), or null. */
  private static String purgeOption(String key) {
    for (String n : List.of("purgeeventafter", "purgejobafter", "purgeresvafter", "purgestepafter",
        "purgesuspendafter")) {
      if (is(key, n, 10)) {
        return n;
      }
    }
    for (String n : List.of("purgeeventmonths", "purgejobmonths", "purgeresvmonths")) {
      if (is(key, n, 6)) {
        return n;
      }
    }
    for (String n : List.of("purgestepmonths", "purgesuspendmonths")) {
      if (is(key, n, 7)) {
        return n;
      }
    }
    return null;
  }

  private String months(String option, String v) {
    if (!v.matches("\\d{1,9}")) {
      cli.error("error: Invalid value for " + option + " (" + v + ")");
      return null;
    }
    return v + "months";
  }

  private static void setAge(ArchiveDumpRequest.Builder r, String what, String age) {
    if (what.startsWith("event")) {
      r.setPurgeEventAfter(age);
    } else if (what.startsWith("job")) {
      r.setPurgeJobAfter(age);
    } else if (what.startsWith("step")) {
      r.setPurgeStepAfter(age);
    } else if (what.startsWith("suspend")) {
      r.setPurgeSuspendAfter(age);
    } // resv: no reservation records kept
  }

  /** slurmdb_parse_purge: digits, then nothing (months) or a unit starting h, d or m. */
  private String purge(String v) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(.*)").matcher(v);
    if (!m.matches()) {
      cli.error("error: Invalid purge string '" + v + "'");
      return null;
    }
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    if (!unit.isEmpty() && "hdm".indexOf(unit.charAt(0)) < 0) {
      cli.error("error: Invalid purge unit '" + m.group(2) + "', valid options are hours, days, or months");
      return null;
    }
    return m.group(1) + (unit.isEmpty() ? "months" : switch (unit.charAt(0)) {
      case 'h' -> "hours";
      case 'd' -> "days";
      default -> "months";
    });
  }

  private boolean checkDir(Path dir) {
    return check(dir, "directory", "dir", Files.isDirectory(dir), "a directory", Files.isWritable(dir), "writable");
  }

  private boolean checkScript(Path script) {
    return check(script, "script", "script", Files.isRegularFile(script), "a regular file", Files.isExecutable(script),
        "executable");
  }

  /** sacctmgr's checks of a dump's Directory= or Script= on the calling host, with its messages. */
  private boolean check(Path p, String noun, String word, boolean isType, String type, boolean allowed, String perm) {
    if (!Files.exists(p)) {
      cli.err().print(" dump: Failed to stat " + p + ": No such file or directory\n"
          + " Note: For archive dump, the " + noun + " must be on the calling host.\n");
      return false;
    }
    if (!isType || !allowed) {
      cli.err().println(" dump: archive " + word + " " + p + (isType ? " is not " + perm : " isn't " + type));
      return false;
    }
    return true;
  }

  private int load(List<String> args) throws IOException {
    ArchiveLoadRequest.Builder r = ArchiveLoadRequest.newBuilder();
    boolean bad = false;
    for (String a : args) {
      int eq = a.indexOf('=');
      String key = (eq < 0 ? a : a.substring(0, eq)).toLowerCase(Locale.ROOT);
      if (eq < 0 || is(key, "file", 1)) {
        String f = unquote(eq < 0 ? a : a.substring(eq + 1));
        // the file is read by slurmdbd, on this host: name it from where sacctmgr runs
        r.setFile(f.isEmpty() ? "" : cli.caller().resolve(f).normalize().toString());
      } else if (is(key, "insert", 2)) {
        r.setInsert(a.substring(eq + 1));
      } else {
        cli.err().println(" Unknown option: " + a);
        bad = true;
      }
    }
    if (bad) {
      return 1;
    }
    if (!immediate) {
      Response check = cli.accounting().get().call(Request.newBuilder().setArchiveLoad(r.clone().setCheckOnly(true))
          .build());
      if (check.getErrorCode() != 0) {
        return loadProblem(check);
      }
      if (!confirm.ask("Would you like to commit changes?")) {
        cli.out().println(" Changes Discarded");
        return 0;
      }
    }
    Response resp = cli.accounting().get().call(Request.newBuilder().setArchiveLoad(r).build());
    if (resp.getErrorCode() != 0) {
      return loadProblem(resp);
    }
    cli.error("accounting_storage/slurmdbd: jobacct_storage_p_archive_load: SUCCESS");
    return 0;
  }

  private int loadProblem(Response resp) {
    problem(resp, " Problem loading archive file: ");
    if (resp.getErrorCode() == SlurmError.NO_SUCH_FILE.code()) {
      cli.err().println(" Note: For archive load, the file must be accessible on the slurmdbd host.");
    }
    return 1;
  }

  /** slurmdbd's comment as sacctmgr's library logs it, then sacctmgr's own line. */
  private int problem(Response resp, String prefix) {
    cli.out().flush();
    cli.error("error: " + resp.getErrorMessage());
    cli.err().println(prefix + SlurmError.messageFor(resp.getErrorCode()));
    return 1;
  }

  private static String unquote(String v) {
    if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'') && v.charAt(v.length() - 1) == v.charAt(0)) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }
}
