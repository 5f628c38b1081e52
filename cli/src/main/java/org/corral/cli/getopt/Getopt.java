package org.corral.cli.getopt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * GNU getopt_long, as Slurm's commands use it: bundled short options ({@code -nP}), a short
 * option's value attached ({@code -o%i}, {@code "-o %C"} keeps the space) or in the next argument,
 * options after operands (argument permutation), {@code --opt=v} and {@code --opt v}, unambiguous
 * long-option prefixes, and {@code --} to end options. Errors carry GNU's exact wording.
 *
 * <p>Short options are declared as in C: {@code "ab:c::"} (b takes a value, c an optional
 * attached one). A leading {@code +} stops at the first operand, as POSIXLY_CORRECT does.
 */
public final class Getopt {

  /** Whether an option takes a value. */
  public enum Arg { NONE, REQUIRED, OPTIONAL }

  /** A long option; {@code key} is what a match reports, often the equivalent short letter. */
  public record LongOpt(String name, Arg arg, String key) {}

  /** One parsed option: its key (short letter or long option's key) and value (or null). */
  public record Opt(String key, String value) {}

  /** The options in the order given, then the operands. */
  public record Result(List<Opt> options, List<String> operands) {}

  /** A usage error; {@link #getMessage()} is GNU's text without the program-name prefix. */
  public static final class GetoptException extends Exception {
    private static final long serialVersionUID = 1L;
    public GetoptException(String message) { super(message); }
  }

  private final Map<Character, Arg> shortOpts;
  private final List<LongOpt> longOpts;
  private final boolean stopAtOperand;

  public Getopt(String shortSpec, List<LongOpt> longOpts) {
    boolean plus = shortSpec.startsWith("+");
    String spec = plus ? shortSpec.substring(1) : shortSpec;
    var map = new java.util.HashMap<Character, Arg>();
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      Arg a = Arg.NONE;
      if (i + 1 < spec.length() && spec.charAt(i + 1) == ':') {
        a = Arg.REQUIRED;
        i++;
        if (i + 1 < spec.length() && spec.charAt(i + 1) == ':') {
          a = Arg.OPTIONAL;
          i++;
        }
      }
      map.put(c, a);
    }
    this.shortOpts = Map.copyOf(map);
    this.longOpts = List.copyOf(longOpts);
    this.stopAtOperand = plus;
  }

  /** The long name an option key is known by, for messages ("--array"); "-K" without one. */
  public static String displayName(List<LongOpt> longOpts, String key) {
    for (LongOpt o : longOpts) {
      if (o.key().equals(key)) {
        return "--" + o.name();
      }
    }
    return "-" + key;
  }

  public Result parse(List<String> args) throws GetoptException {
    List<Opt> opts = new ArrayList<>();
    List<String> operands = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        operands.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (a.startsWith("--")) {
        i = parseLong(args, i, opts);
      } else if (a.startsWith("-") && a.length() > 1) {
        i = parseShort(args, i, opts);
      } else if (stopAtOperand) {
        operands.addAll(args.subList(i, args.size()));
        break;
      } else {
        operands.add(a);
      }
    }
    return new Result(List.copyOf(opts), List.copyOf(operands));
  }

  private int parseShort(List<String> args, int i, List<Opt> opts) throws GetoptException {
    String a = args.get(i);
    for (int j = 1; j < a.length(); j++) {
      char c = a.charAt(j);
      Arg kind = shortOpts.get(c);
      if (kind == null || c == ':' || c == '+') {
        throw new GetoptException("invalid option -- '" + c + "'");
      }
      switch (kind) {
        case NONE -> opts.add(new Opt(String.valueOf(c), null));
        case OPTIONAL -> {
          opts.add(new Opt(String.valueOf(c), j + 1 < a.length() ? a.substring(j + 1) : null));
          return i;
        }
        case REQUIRED -> {
          if (j + 1 < a.length()) {
            opts.add(new Opt(String.valueOf(c), a.substring(j + 1)));
            return i;
          }
          if (i + 1 >= args.size()) {
            throw new GetoptException("option requires an argument -- '" + c + "'");
          }
          opts.add(new Opt(String.valueOf(c), args.get(i + 1)));
          return i + 1;
        }
      }
    }
    return i;
  }

  private int parseLong(List<String> args, int i, List<Opt> opts) throws GetoptException {
    String a = args.get(i).substring(2);
    int eq = a.indexOf('=');
    String name = eq < 0 ? a : a.substring(0, eq);
    String attached = eq < 0 ? null : a.substring(eq + 1);
    LongOpt match = findLong(name, a);
    switch (match.arg()) {
      case NONE -> {
        if (attached != null) {
          throw new GetoptException("option '--" + match.name() + "' doesn't allow an argument");
        }
        opts.add(new Opt(match.key(), null));
      }
      case OPTIONAL -> opts.add(new Opt(match.key(), attached));
      case REQUIRED -> {
        if (attached != null) {
          opts.add(new Opt(match.key(), attached));
        } else if (i + 1 < args.size()) {
          opts.add(new Opt(match.key(), args.get(i + 1)));
          return i + 1;
        } else {
          throw new GetoptException("option '--" + match.name() + "' requires an argument");
        }
      }
    }
    return i;
  }

  /** Finds the option {@code name} abbreviates; {@code text} (the argument after "--", value
   *  included) is what GNU quotes in its messages. */
  private LongOpt findLong(String name, String text) throws GetoptException {
    List<LongOpt> candidates = new ArrayList<>();
    for (LongOpt o : longOpts) {
      if (o.name().equals(name)) {
        return o;
      }
      if (o.name().startsWith(name)) {
        candidates.add(o);
      }
    }
    if (candidates.isEmpty()) {
      throw new GetoptException("unrecognized option '--" + text + "'");
    }
    // Prefixes of several names that all mean the same option are not ambiguous (GNU rule);
    // GNU lists the first match and every later one that differs from it, in table order.
    LongOpt first = candidates.get(0);
    List<LongOpt> differing = candidates.stream().filter(o -> !sameOption(o, first)).toList();
    if (!differing.isEmpty()) {
      StringBuilder sb = new StringBuilder("option '--" + text + "' is ambiguous; possibilities:");
      sb.append(" '--").append(first.name()).append('\'');
      for (LongOpt o : differing) {
        sb.append(" '--").append(o.name()).append('\'');
      }
      throw new GetoptException(sb.toString());
    }
    return first;
  }

  private static boolean sameOption(LongOpt a, LongOpt b) {
    return a.key().equals(b.key()) && a.arg() == b.arg();
  }
}
