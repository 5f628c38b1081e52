package org.corral.cli.scancel;

import java.util.List;

/** Why scancel stops before asking the controller: what it prints on stderr, and exit 1. */
final class ScancelFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<String> lines;

  ScancelFailure(String... lines) {
    super(String.join("\n", lines));
    this.lines = List.of(lines);
  }

  /** "scancel: error: MESSAGE". */
  static ScancelFailure error(String message) {
    return new ScancelFailure("scancel: error: " + message);
  }

  List<String> lines() { return lines; }
}
