package org.corral.cli.sbcast;

import java.util.Locale;

/**
 * slurm.conf's BcastParameters as sbcast uses them: DestDir= (where a relative DEST goes) and
 * Compression= (the default -C library). Other words (send_libs) are not Corral's.
 *
 * @param destDir null when not set
 * @param compression null when not set
 */
record BcastParameters(String destDir, String compression) {
  static BcastParameters of(String text) {
    String destDir = null;
    String compression = null;
    for (String word : text.split(",")) {
      int eq = word.indexOf('=');
      String key = (eq < 0 ? word : word.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : word.substring(eq + 1).strip();
      switch (key) {
        case "destdir" -> destDir = value;
        case "compression" -> compression = value;
        default -> { }
      }
    }
    return new BcastParameters(destDir, compression);
  }
}
