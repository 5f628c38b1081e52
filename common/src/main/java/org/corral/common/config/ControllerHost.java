package org.corral.common.config;

import java.util.Optional;

/** A SlurmctldHost value: {@code host} or {@code host(addr)}; the address defaults to the host. */
public record ControllerHost(String host, String addr) {

  /** The parsed value, or empty when it is not of that shape. */
  public static Optional<ControllerHost> parse(String text) {
    String t = text.trim();
    int open = t.indexOf('(');
    if (t.isEmpty() || (open < 0 && t.contains(")"))) {
      return Optional.empty();
    }
    if (open < 0) {
      return Optional.of(new ControllerHost(t, t));
    }
    if (open == 0 || !t.endsWith(")") || t.length() <= open + 2) {
      return Optional.empty();
    }
    return Optional.of(new ControllerHost(t.substring(0, open).trim(), t.substring(open + 1, t.length() - 1).trim()));
  }
}
