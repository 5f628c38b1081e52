package org.corral.slurmd.gres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.corral.protocol.Gres;
import org.corral.protocol.msg.GresAlloc;

/**
 * ConstrainDevices: which of the node's generic resource device files a job (or step) must not
 * open, as device cgroup rules ({@code c 195:1}): every device file of the node's GRES but those
 * of the units it was given. A file given to it stays open to it even where another unit shares
 * the file.
 */
public final class DeviceRules {
  private DeviceRules() {}

  /** The rules denying what the inventory has beyond {@code given}; files that are not devices are skipped. */
  public static List<String> denied(GresInventory inventory, List<GresAlloc> given) {
    Set<String> mine = new LinkedHashSet<>();
    for (String name : Gres.names(inventory.slots())) {
      mine.addAll(inventory.files(name, Gres.indices(given, name)));
    }
    List<String> out = new ArrayList<>();
    for (String f : new LinkedHashSet<>(inventory.allFiles())) {
      if (!mine.contains(f)) {
        rule(Path.of(f)).ifPresent(r -> {
          if (!out.contains(r)) {
            out.add(r);
          }
        });
      }
    }
    return out;
  }

  /** "c MAJOR:MINOR" (or "b ...") for a device file; empty when it is not one or cannot be read. */
  static java.util.Optional<String> rule(Path file) {
    try {
      int mode = (Integer) Files.getAttribute(file, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS);
      Path real = (mode & 0170000) == 0120000 ? file.toRealPath() : file; // a link: the device it names
      mode = (Integer) Files.getAttribute(real, "unix:mode");
      long rdev = (Long) Files.getAttribute(real, "unix:rdev");
      char type = switch (mode & 0170000) {
        case 0020000 -> 'c';
        case 0060000 -> 'b';
        default -> 0;
      };
      if (type == 0) {
        return java.util.Optional.empty();
      }
      long major = ((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL);
      long minor = (rdev & 0xff) | ((rdev >>> 12) & ~0xffL);
      return java.util.Optional.of(type + " " + major + ":" + minor);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return java.util.Optional.empty();
    }
  }
}
