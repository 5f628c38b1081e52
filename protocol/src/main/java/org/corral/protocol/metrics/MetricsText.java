package org.corral.protocol.metrics;

import java.util.HashSet;
import java.util.Set;

/**
 * Writes metric families in Prometheus' text format (0.0.4, what Slurm's endpoints serve) or,
 * when the scraper asks for it, OpenMetrics 1.0 (the same lines, counters' family named without
 * {@code _total}, and a closing {@code # EOF}). Each family is announced once with its HELP and
 * TYPE; label values are escaped as both formats require.
 */
public final class MetricsText {
  public static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  public static final String OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private final StringBuilder out = new StringBuilder(4096);
  private final boolean openMetrics;
  private final Set<String> announced = new HashSet<>();

  public MetricsText(boolean openMetrics) {
    this.openMetrics = openMetrics;
  }

  public String contentType() {
    return openMetrics ? OPENMETRICS_TYPE : PROMETHEUS_TYPE;
  }

  /** A gauge without labels. */
  public MetricsText gauge(String name, String help, double value) {
    family(name, help, "gauge");
    return sample(name, null, value);
  }

  /** One sample of a gauge family with labels given as name, value, name, value... */
  public MetricsText gauge(String name, String help, double value, String... labels) {
    family(name, help, "gauge");
    return sample(name, labels, value);
  }

  /** One sample of a counter ({@code name} without the {@code _total} its sample carries). */
  public MetricsText counter(String name, String help, double value, String... labels) {
    if (openMetrics) {
      family(name, help, "counter");
    } else {
      family(name + "_total", help, "counter");
    }
    return sample(name + "_total", labels, value);
  }

  /** One histogram (cumulative buckets in seconds, their sum and count) with labels. */
  public MetricsText histogram(String name, String help, Histogram.Snapshot h, String... labels) {
    family(name, help, "histogram");
    double[] bounds = h.bounds();
    long[] cumulative = h.cumulative();
    for (int i = 0; i < bounds.length; i++) {
      sample(name + "_bucket", withLabel(labels, "le", number(bounds[i])), cumulative[i]);
    }
    sample(name + "_bucket", withLabel(labels, "le", "+Inf"), h.count());
    sample(name + "_sum", labels, h.sumSeconds());
    return sample(name + "_count", labels, h.count());
  }

  private static String[] withLabel(String[] labels, String name, String value) {
    String[] all = new String[(labels == null ? 0 : labels.length) + 2];
    if (labels != null) {
      System.arraycopy(labels, 0, all, 0, labels.length);
    }
    all[all.length - 2] = name;
    all[all.length - 1] = value;
    return all;
  }

  private void family(String name, String help, String type) {
    if (announced.add(name)) {
      out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n')
          .append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }
  }

  private MetricsText sample(String name, String[] labels, double value) {
    out.append(name);
    if (labels != null && labels.length > 0) {
      out.append('{');
      for (int i = 0; i + 1 < labels.length; i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels[i]).append("=\"").append(escapeLabel(labels[i + 1])).append('"');
      }
      out.append('}');
    }
    return append(value);
  }

  private MetricsText append(double value) {
    out.append(' ').append(number(value)).append('\n');
    return this;
  }

  /** Whole numbers without a fraction (as Slurm prints its counts), others as Java prints doubles. */
  static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  static String escapeLabel(String v) {
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String escapeHelp(String v) {
    return v.replace("\\", "\\\\").replace("\n", "\\n");
  }

  /** The text, closed with {@code # EOF} in OpenMetrics. */
  public String finish() {
    if (openMetrics) {
      out.append("# EOF\n");
    }
    return out.toString();
  }
}
