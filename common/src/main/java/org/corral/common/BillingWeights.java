package org.corral.common;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A partition's TRESBillingWeights ({@code CPU=1.0,Mem=0.25G,GRES/gpu=2.0}) and the billing TRES
 * they give a job, as slurm.conf(5) documents it: the sum over TRES of count × weight, or with
 * PriorityFlags=MAX_TRES the largest weighted node-level TRES (cpu, mem, node, gres) plus the
 * weighted global ones (licenses, burst buffers). Without weights a job is billed its CPUs.
 *
 * <p>TRES are named as accounting names them, type lower case ({@code cpu}, {@code mem},
 * {@code gres/gpu}, {@code gres/gpu:a100}, {@code license/foo}); memory and burst buffers count
 * MB. A weight's K, M, G, T or P suffix scales it to that unit: {@code Mem=0.25G} is 0.25 per GB
 * (0.25/1024 per MB), {@code CPU=1K} 1 per 1024 CPUs.
 */
public final class BillingWeights {
  /** No weights: billing is the CPU count. */
  public static final BillingWeights NONE = new BillingWeights("", Map.of());

  private static final String UNITS = "KMGTP";
  private static final Pattern NUMBER = Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)");

  private final String text;
  private final Map<String, Double> perUnit;

  private BillingWeights(String text, Map<String, Double> perUnit) {
    this.text = text;
    this.perUnit = perUnit;
  }

  /**
   * Parses slurm.conf's value; blank is {@link #NONE}.
   *
   * @throws IllegalArgumentException for an item that is not TYPE=NUMBER[KMGTP] of a billable TRES
   */
  public static BillingWeights parse(String text) {
    if (text == null || text.isBlank()) {
      return NONE;
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (String item : text.trim().split(",", -1)) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("invalid TRESBillingWeights item '" + item + "'");
      }
      String name = tresName(item.substring(0, eq).trim());
      out.put(name, weightPerUnit(name, item.substring(eq + 1).trim()));
    }
    return new BillingWeights(text.trim(), Collections.unmodifiableMap(out));
  }

  /** The value as configured (scontrol's TRESBillingWeights=); "" when none. */
  public String text() {
    return text;
  }

  public boolean isEmpty() {
    return perUnit.isEmpty();
  }

  /** Weight per counted unit (per MB for mem), by TRES name. */
  public Map<String, Double> perUnit() {
    return perUnit;
  }

  /**
   * The billing TRES of these counts (mem in MB): {@code tres.get("cpu")} when there are no
   * weights. Unweighted TRES count nothing.
   */
  public double billing(Map<String, Long> tres, boolean maxTres) {
    if (perUnit.isEmpty()) {
      return tres.getOrDefault("cpu", 0L);
    }
    double sum = 0;
    double max = 0;
    for (Map.Entry<String, Double> w : perUnit.entrySet()) {
      double v = tres.getOrDefault(w.getKey(), 0L) * w.getValue();
      if (maxTres && nodeLevel(w.getKey())) {
        max = Math.max(max, v);
      } else {
        sum += v;
      }
    }
    return sum + max;
  }

  /** What a job's records keep: the billing TRES as a whole number (slurm tres.html). */
  public static long stored(double billing) {
    return Math.max(0, (long) billing);
  }

  private static boolean nodeLevel(String name) {
    return !name.startsWith("license/") && !name.startsWith("bb/");
  }

  private static String tresName(String given) {
    int slash = given.indexOf('/');
    String type = (slash < 0 ? given : given.substring(0, slash)).toLowerCase(Locale.ROOT);
    String name = slash < 0 ? "" : given.substring(slash + 1);
    boolean ok = switch (type) {
      case "cpu", "mem", "node", "energy", "vmem", "pages" -> name.isEmpty();
      case "gres", "license", "bb", "fs", "ic" -> !name.isEmpty();
      default -> false;
    };
    if (!ok) {
      throw new IllegalArgumentException("invalid TRES '" + given + "' in TRESBillingWeights");
    }
    return name.isEmpty() ? type : type + "/" + name;
  }

  private static double weightPerUnit(String name, String value) {
    int unit = value.isEmpty() ? -1 : UNITS.indexOf(Character.toUpperCase(value.charAt(value.length() - 1)));
    String number = unit < 0 ? value : value.substring(0, value.length() - 1);
    if (!NUMBER.matcher(number).matches()) {
      throw new IllegalArgumentException("invalid weight '" + value + "' for " + name + " in TRESBillingWeights");
    }
    double w = Double.parseDouble(number);
    if (unit < 0) {
      return w;
    }
    // Memory and burst buffers count MB: K is 1024 KB per MB, M itself, G 1/1024 of a GB per MB.
    int base = name.equals("mem") || name.startsWith("bb/") ? 1 : -1;
    return w * Math.pow(1024, base - unit);
  }
}
