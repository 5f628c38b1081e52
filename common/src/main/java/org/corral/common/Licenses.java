package org.corral.common;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Licenses as slurm.conf's {@code Licenses=} and the commands' {@code -L/--licenses} write them:
 * {@code name[:count]} separated by commas, the count 1 when left out ({@code foo:4,bar}). A
 * name given twice counts twice. Slurm 22.05 refuses the old {@code name*count} form for jobs.
 */
public final class Licenses {
  private static final Pattern NAME = Pattern.compile("[^,:*|\\s]+");
  private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");

  private Licenses() {}

  /**
   * The counts by name, in the order first named.
   *
   * @throws IllegalArgumentException when an element is not {@code name[:count]}
   */
  public static Map<String, Integer> parse(String spec) {
    Map<String, Integer> out = new LinkedHashMap<>();
    if (spec == null || spec.isEmpty()) {
      return Collections.unmodifiableMap(out);
    }
    for (String item : spec.split(",", -1)) {
      int colon = item.indexOf(':');
      String name = colon < 0 ? item : item.substring(0, colon);
      String count = colon < 0 ? "1" : item.substring(colon + 1);
      if (!NAME.matcher(name).matches() || !COUNT.matcher(count).matches()) {
        throw new IllegalArgumentException("invalid license specification: " + item);
      }
      out.merge(name, Integer.parseInt(count), Integer::sum);
    }
    return Collections.unmodifiableMap(out);
  }
}
