package org.corral.cli.format;

/** C's atoi, through which Slurm's commands read many numeric options: "12abc" is 12, "abc" 0. */
public final class Atoi {
  private Atoi() {}

  public static int of(String text) {
    String t = text == null ? "" : text.strip();
    int end = 0;
    if (end < t.length() && (t.charAt(end) == '-' || t.charAt(end) == '+')) {
      end++;
    }
    int digits = end;
    while (end < t.length() && Character.isDigit(t.charAt(end)) && end - digits < 18) {
      end++;
    }
    if (end == digits) {
      return 0;
    }
    long v = Long.parseLong(t.substring(0, end));
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
  }
}
