package org.corral.cli.format;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numbers as C's printf("%.Nf") writes them: the double's exact value rounded to nearest, ties
 * to even (Java's String.format rounds half up, so "%.0f" of 0.5 would differ).
 */
public final class Printf {
  private Printf() {}

  public static String fixed(double v, int decimals) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
    }
    return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }
}
