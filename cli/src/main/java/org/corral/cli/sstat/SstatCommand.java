package org.corral.cli.sstat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.Hostlist;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.StepStatRequest;
import org.corral.protocol.msg.StepUsage;

/**
 * sstat: live usage of running job steps ({@code -j JOB[.STEP],...}), asked of the controller,
 * which asks the job's nodes. Output as Slurm 22.05's: fixed-width columns (each followed by a
 * space), or '|'-separated with -p/-P.
 */
public final class SstatCommand implements CliCommand {
  private static final Getopt GETOPT = new Getopt("aehij:no:pPvV", List.of(
      new LongOpt("allsteps", Arg.NONE, "a"),
      new LongOpt("format", Arg.REQUIRED, "o"),
      new LongOpt("fields", Arg.REQUIRED, "o"),
      new LongOpt("help", Arg.NONE, "help"),
      new LongOpt("helpformat", Arg.NONE, "e"),
      new LongOpt("jobs", Arg.REQUIRED, "j"),
      new LongOpt("noconvert", Arg.NONE, "noconvert"),
      new LongOpt("noheader", Arg.NONE, "n"),
      new LongOpt("parsable", Arg.NONE, "p"),
      new LongOpt("parsable2", Arg.NONE, "P"),
      new LongOpt("pidformat", Arg.NONE, "i"),
      new LongOpt("usage", Arg.NONE, "usage"),
      new LongOpt("verbose", Arg.NONE, "v"),
      new LongOpt("version", Arg.NONE, "V")));

  /** One -j entry: a job and its step ("" = not given). */
  record Target(int jobId, String step) {}

  private record Column(SstatField field, int width, boolean left) {}

  @Override
  public int run(List<String> args, Cli cli) {
    Getopt.Result parsed;
    try {
      parsed = GETOPT.parse(args);
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage()); // sstat adds no "Try ..." line
      return 1;
    }
    boolean all = false;
    boolean header = true;
    boolean noConvert = false;
    String separator = null;
    boolean trailing = false;
    String format = null;
    List<String> jobs = new ArrayList<>();
    for (Getopt.Opt o : parsed.options()) {
      switch (o.key()) {
        case "a" -> all = true;
        case "e" -> {
          helpFormat(cli);
          return 0;
        }
        case "h", "help" -> {
          return HelpText.info(cli, SstatCommand.class, "help", null);
        }
        case "usage" -> {
          return HelpText.info(cli, SstatCommand.class, "usage", "Usage: sstat [options] -j <job(.stepid)>\n\tUse --help for help\n");
        }
        case "i" -> format = String.join(",", SstatField.PIDS);
        case "j" -> jobs.add(o.value());
        case "n" -> header = false;
        case "noconvert" -> noConvert = true;
        case "o" -> format = o.value();
        case "p" -> {
          separator = "|";
          trailing = true;
        }
        case "P" -> {
          separator = "|";
          trailing = false;
        }
        case "V" -> {
          return HelpText.info(cli, SstatCommand.class, "V", null);
        }
        default -> { }
      }
    }
    List<Column> columns;
    try {
      columns = columns(format == null ? String.join(",", SstatField.DEFAULT) : format);
    } catch (IllegalArgumentException e) {
      cli.error("error: Invalid field requested: \"" + e.getMessage() + "\"");
      return 1;
    }
    List<Target> targets = new ArrayList<>();
    for (String list : jobs) {
      for (String word : list.split(",")) {
        if (word.isEmpty()) {
          continue;
        }
        Optional<Target> t = target(word, cli);
        if (t.isEmpty()) {
          return 1;
        }
        targets.add(t.get());
      }
    }
    if (targets.isEmpty()) {
      cli.error("error: You didn't give me any jobs to stat.");
      return 1;
    }
    Printer printer = new Printer(cli, columns, separator, trailing, noConvert);
    if (header) {
      printer.header();
    }
    for (Target t : targets) {
      stat(t, all, printer, cli);
    }
    return 0;
  }

  private void stat(Target t, boolean all, Printer printer, Cli cli) {
    String id = Integer.toUnsignedString(t.jobId());
    Response r;
    try {
      r = cli.controller().get().call(Request.newBuilder().setStepStat(StepStatRequest.newBuilder()
          .setJobId(t.jobId()).setStep(t.step()).setAllSteps(all)).build());
    } catch (IOException | UncheckedIOException e) {
      cli.error("error: couldn't get steps for job " + id);
      return;
    }
    if (r.getErrorCode() == SlurmError.USER_ID_MISSING.code()) {
      String message = SlurmError.USER_ID_MISSING.message();
      String step = t.step().isEmpty() ? "batch" : t.step();
      cli.error("error: slurm_job_step_stat: there was an error with the request to "
          + firstNode(r.getErrorMessage()) + " rc = " + message);
      cli.error("error: problem getting step_layout for StepId=" + id + "." + step + ": " + message);
      return;
    }
    if (r.getErrorCode() != 0) {
      cli.error("error: couldn't get steps for job " + id);
      return;
    }
    List<StepUsage> steps = r.getStepStat().getStepsList();
    if (steps.isEmpty()) {
      if (!t.step().isEmpty()) {
        cli.error("error: StepId=" + id + "." + t.step() + " not found running.");
      } else if (!r.getStepStat().getJobRunning()) {
        cli.error("error: No steps running for job " + id);
      }
      return;
    }
    steps.forEach(printer::row);
  }

  private static String firstNode(String nodes) {
    List<String> names = nodes.isEmpty() ? List.of() : Hostlist.expand(nodes);
    return names.isEmpty() ? "(null)" : names.get(0);
  }

  private static Optional<Target> target(String word, Cli cli) {
    int dot = word.indexOf('.');
    String job = dot < 0 ? word : word.substring(0, dot);
    int id;
    try {
      id = Integer.parseUnsignedInt(job);
    } catch (NumberFormatException e) {
      cli.error("fatal: Bad job/step specified: " + word);
      return Optional.empty();
    }
    if (dot < 0) {
      return Optional.of(new Target(id, ""));
    }
    String step = word.substring(dot + 1);
    if (!step.equals("batch") && !step.equals("extern") && !step.matches("[0-9]{1,9}")) {
      cli.error("fatal: Bad step specified: " + job);
      return Optional.empty();
    }
    return Optional.of(new Target(id, step));
  }

  /** "-o name%width,...": a positive width right-justifies, a negative one left-justifies. */
  private static List<Column> columns(String format) {
    List<Column> out = new ArrayList<>();
    for (String spec : format.split(",")) {
      if (spec.isBlank()) {
        continue;
      }
      int pct = spec.indexOf('%');
      String name = pct < 0 ? spec.strip() : spec.substring(0, pct).strip();
      SstatField field = SstatField.named(name).orElseThrow(() -> new IllegalArgumentException(name));
      int width = field.width();
      boolean left = field.leftJustified();
      if (pct >= 0) {
        try {
          int w = Integer.parseInt(spec.substring(pct + 1).strip());
          if (w != 0) {
            width = Math.abs(w);
            left = w < 0;
          }
        } catch (NumberFormatException e) {
          // Slurm ignores a width it cannot read
        }
      }
      out.add(new Column(field, width, left));
    }
    return out;
  }

  private static void helpFormat(Cli cli) {
    StringBuilder out = new StringBuilder();
    List<SstatField> fields = SstatField.ALL;
    for (int i = 0; i < fields.size(); i++) {
      out.append(String.format("%-20s", fields.get(i).name()));
      if (i % 4 == 3 || i == fields.size() - 1) {
        out.setLength(out.length() - 1);
        out.append('\n');
      }
    }
    cli.out().print(out);
  }

  /** Writes the header and rows in the chosen layout. */
  private record Printer(Cli cli, List<Column> columns, String separator, boolean trailing, boolean noConvert) {
    void header() {
      if (separator != null) {
        cli.out().print(join(columns.stream().map(c -> c.field().name()).toList()));
        return;
      }
      StringBuilder names = new StringBuilder();
      StringBuilder dashes = new StringBuilder();
      for (Column c : columns) {
        names.append(cell(c, c.field().name())).append(' ');
        dashes.append("-".repeat(c.width())).append(' ');
      }
      cli.out().print(names.append('\n').append(dashes).append('\n'));
    }

    void row(StepUsage u) {
      List<String> values = columns.stream().map(c -> c.field().value().apply(u, noConvert)).toList();
      if (separator != null) {
        cli.out().print(join(values));
        return;
      }
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns.size(); i++) {
        line.append(cell(columns.get(i), values.get(i))).append(' ');
      }
      cli.out().print(line.append('\n'));
    }

    private String join(List<String> values) {
      return String.join(separator, values) + (trailing ? separator : "") + "\n";
    }

    private static String cell(Column c, String value) {
      String v = value.length() > c.width() ? value.substring(0, c.width() - 1) + "+" : value;
      String pad = " ".repeat(c.width() - v.length());
      return c.left() ? v + pad : pad + v;
    }
  }
}
