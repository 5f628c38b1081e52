package org.corral.cli.scontrol;

import java.util.List;

/**
 * One record in scontrol's Key=Value layout: lines that print indented by three spaces, or
 * joined by single spaces with -o. Each record is followed by a blank line unless one-lined.
 */
record Entry(List<String> lines) {
  String render(boolean oneLiner) {
    return oneLiner ? String.join(" ", lines) + "\n" : String.join("\n   ", lines) + "\n\n";
  }
}
