package org.corral.protocol.dataparser;

import java.util.Locale;
import java.util.Map;

/** Signal names and numbers (Linux), for ?signal= and exit codes. */
public final class Signals {
  private static final String[] NAMES = {null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
      "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP",
      "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"};
  private static final Map<String, Integer> ALIASES = Map.of("IOT", 6, "POLL", 29);

  private Signals() {}

  public static String name(int signal) {
    return signal > 0 && signal < NAMES.length ? "SIG" + NAMES[signal] : String.valueOf(signal);
  }

  /** "KILL", "SIGKILL", "sigterm" or "9"; -1 when it is none of them. */
  public static int parse(String text) {
    String s = text.trim().toUpperCase(Locale.ROOT);
    if (s.matches("[0-9]{1,2}")) {
      int n = Integer.parseInt(s);
      return n >= 1 && n < 65 ? n : -1;
    }
    if (s.startsWith("SIG")) {
      s = s.substring(3);
    }
    for (int i = 1; i < NAMES.length; i++) {
      if (NAMES[i].equals(s)) {
        return i;
      }
    }
    return ALIASES.getOrDefault(s, -1);
  }
}
