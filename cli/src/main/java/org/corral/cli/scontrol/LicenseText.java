package org.corral.cli.scontrol;

import java.io.PrintStream;
import java.util.List;
import org.corral.protocol.msg.LicenseInfo;

/**
 * {@code scontrol show licenses} as Slurm 22.05 prints it: the name on its own line, the counts
 * indented on the next (one line with {@code -o}); slurm.conf's licenses are never remote.
 */
final class LicenseText {
  private LicenseText() {}

  static void print(List<LicenseInfo> licenses, boolean oneLiner, PrintStream out) {
    if (licenses.isEmpty()) {
      out.println("No licenses configured in Slurm.");
      return;
    }
    for (LicenseInfo l : licenses) {
      long free = Math.max(0, (long) l.getTotal() - l.getUsed() - l.getReserved());
      out.println("LicenseName=" + l.getName() + (oneLiner ? " " : "\n    ") + "Total=" + l.getTotal()
          + " Used=" + l.getUsed() + " Free=" + free + " Reserved=" + l.getReserved() + " Remote=no");
    }
  }
}
