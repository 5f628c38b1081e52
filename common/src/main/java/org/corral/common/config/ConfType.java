package org.corral.common.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.corral.common.MemorySize;
import org.corral.common.SlurmDuration;

/**
 * The type of a slurm.conf value: how it is read (a bad value is an {@link IllegalArgumentException}
 * whose message says why, or is empty when "invalid value" says it all) and how {@code scontrol show
 * config} prints it, unit included ({@code 30 sec}, {@code UNLIMITED}, {@code 7-00:00:00}).
 *
 * @param <T> what a value reads as
 */
public abstract class ConfType<T> {
  /** Any text, printed as written. */
  public static final ConfType<String> TEXT = new ConfType<>() {
    @Override
    String parse(String key, String raw) {
      return raw.trim();
    }
  };

  /** A whole number without a unit. */
  public static final ConfType<Long> NUMBER = unit("");
  public static final ConfType<Long> SECONDS = unit(" sec");
  public static final ConfType<Long> MINUTES = unit(" min");
  public static final ConfType<Long> MICROSECONDS = unit(" usec");
  public static final ConfType<Long> PERCENT = unit(" percent");
  public static final ConfType<Long> NODES_PER_MINUTE = unit(" nodes/min");

  /** YES/NO, TRUE/FALSE, 1/0, printed Yes/No. */
  public static final ConfType<Boolean> YES_NO = bool("Yes", "No");
  /** The same words, printed 1/0. */
  public static final ConfType<Boolean> ONE_ZERO = bool("1", "0");

  /**
   * A time in Slurm's forms (minutes, [D-]HH:MM:SS...), held in minutes, printed {@code 7-00:00:00};
   * -1 (PreemptExemptTime's "none") reads as 0.
   */
  public static final ConfType<Long> TIME = new ConfType<>() {
    @Override
    Long parse(String key, String raw) {
      try {
        return raw.trim().equals("-1") ? 0 : SlurmDuration.parseMinutes(raw.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("");
      }
    }

    @Override
    String print(Long minutes) {
      return SlurmDuration.formatMinutesPadded(minutes);
    }
  };

  /** A comma list of names (GresTypes=gpu,nic), blanks dropped, printed joined again. */
  public static final ConfType<List<String>> LIST = new ConfType<>() {
    @Override
    List<String> parse(String key, String raw) {
      List<String> out = new ArrayList<>();
      for (String t : raw.split(",")) {
        if (!t.isBlank()) {
          out.add(t.trim());
        }
      }
      return List.copyOf(out);
    }

    @Override
    String print(List<String> v) {
      return v.isEmpty() ? "(null)" : String.join(",", v);
    }
  };

  /** Megabytes with an optional K/M/G/T suffix, or UNLIMITED/INFINITE ({@link #UNLIMITED_MB}). */
  public static final ConfType<Long> MEGABYTES = new ConfType<>() {
    @Override
    Long parse(String key, String raw) {
      try {
        return ConfValues.isUnlimited(raw) ? UNLIMITED_MB : MemorySize.parseMb(raw.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("");
      }
    }

    @Override
    String print(Long mb) {
      return mb == UNLIMITED_MB ? "UNLIMITED" : mb.toString();
    }
  };

  /** A number of seconds, or INFINITE/NONE/-1 ({@link #INFINITE_SECONDS}). */
  public static final ConfType<Long> SECONDS_OR_INFINITE = new ConfType<>() {
    @Override
    Long parse(String key, String raw) {
      String t = raw.trim();
      if (t.equalsIgnoreCase("INFINITE") || t.equalsIgnoreCase("NONE") || t.equals("-1")) {
        return INFINITE_SECONDS;
      }
      return SECONDS.parse(key, t);
    }

    @Override
    String print(Long s) {
      return s == INFINITE_SECONDS ? "INFINITE" : s + " sec";
    }
  };

  /** A TCP port, or a range of them ({@code 6817-6820}) of which the first is held. */
  public static final ConfType<Long> PORT = new ConfType<>() {
    @Override
    Long parse(String key, String raw) {
      String t = raw.trim();
      long p = NUMBER.parse(key, t.indexOf('-') > 0 ? t.substring(0, t.indexOf('-')) : t);
      if (p < 1 || p > 65535) {
        throw new IllegalArgumentException("");
      }
      return p;
    }
  };

  public static final long UNLIMITED_MB = -1;
  public static final long INFINITE_SECONDS = -1;

  /** What {@code value} reads as; {@code key} names it in the message of a bad one. */
  abstract T parse(String key, String raw);

  /** As scontrol show config prints a value of this type. */
  String print(T value) {
    return String.valueOf(value);
  }

  /** Parses and prints back: the printed form of a raw value. */
  final String reprint(String key, String raw) {
    return print(parse(key, raw));
  }

  private static ConfType<Long> unit(String suffix) {
    return new ConfType<>() {
      @Override
      Long parse(String key, String raw) {
        String t = raw.trim();
        boolean digits = !t.isEmpty() && t.length() <= 18;
        for (int i = 0; digits && i < t.length(); i++) {
          digits = Character.isDigit(t.charAt(i)) || (i == 0 && t.charAt(0) == '-' && t.length() > 1);
        }
        if (!digits) {
          throw new IllegalArgumentException("");
        }
        long v = Long.parseLong(t);
        if (v < 0) {
          throw new IllegalArgumentException("less than zero");
        }
        return v;
      }

      @Override
      String print(Long v) {
        return v + suffix;
      }
    };
  }

  private static ConfType<Boolean> bool(String yes, String no) {
    return new ConfType<>() {
      @Override
      Boolean parse(String key, String raw) {
        return switch (raw.trim().toUpperCase(Locale.ROOT)) {
          case "YES", "TRUE", "1" -> true;
          case "NO", "FALSE", "0" -> false;
          default -> throw new IllegalArgumentException("");
        };
      }

      @Override
      String print(Boolean v) {
        return v ? yes : no;
      }
    };
  }

  /**
   * A plugin name among {@code names}, or a comma list of them when {@code list}. Corral refuses
   * a name Slurm does not ship, with Slurm's "Can't find plugin for" message.
   */
  public static ConfType<String> plugin(boolean list, String... names) {
    Set<String> known = Set.of(names);
    return new ConfType<>() {
      @Override
      String parse(String key, String raw) {
        String t = raw.trim();
        for (String p : list ? t.split(",") : new String[] {t}) {
          String name = p.trim().toLowerCase(Locale.ROOT);
          if (!known.contains(name)) {
            throw new IllegalArgumentException("Can't find plugin for " + p.trim());
          }
        }
        return t;
      }
    };
  }

  /**
   * A comma list of flags among {@code words} (any case), held and printed in that order and
   * spelling, as Slurm prints its flag words. {@code none} words read as no flag at all.
   */
  public static ConfType<Set<String>> flags(List<String> none, String... words) {
    return new ConfType<>() {
      @Override
      Set<String> parse(String key, String raw) {
        List<String> given = new ArrayList<>();
        for (String w : raw.split(",")) {
          String t = w.trim();
          if (t.isEmpty() || none.contains(t.toLowerCase(Locale.ROOT))) {
            continue;
          }
          String found = null;
          for (String known : words) {
            if (known.equalsIgnoreCase(t)) {
              found = known;
            }
          }
          if (found == null) {
            throw new IllegalArgumentException("unknown " + t + ", not one of " + String.join(", ", words));
          }
          given.add(found);
        }
        Set<String> out = new LinkedHashSet<>();
        for (String known : words) {
          if (given.contains(known)) {
            out.add(known);
          }
        }
        return Collections.unmodifiableSet(out);
      }

      @Override
      String print(Set<String> v) {
        return v.isEmpty() && !none.isEmpty() ? none.get(0) : String.join(",", v);
      }
    };
  }

  /** Text printed upper-cased, as Slurm prints SelectTypeParameters and EnforcePartLimits. */
  public static ConfType<String> upper(String... allowed) {
    return new ConfType<>() {
      @Override
      String parse(String key, String raw) {
        String up = raw.trim().toUpperCase(Locale.ROOT);
        if (allowed.length > 0 && !List.of(allowed).contains(up)) {
          throw new IllegalArgumentException("not one of " + String.join(", ", allowed));
        }
        return up;
      }
    };
  }
}
