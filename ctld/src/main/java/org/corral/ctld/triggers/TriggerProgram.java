package org.corral.ctld.triggers;

import java.io.File;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.corral.protocol.msg.TriggerInfo;

/**
 * Runs a trigger's program on the controller's host, as the user who set the trigger (through
 * setpriv when that is not the controller's own user), with the program's own arguments and then
 * the event's (nodes or job id), from /, with no input, its output discarded, a plain PATH; killed
 * with whatever it started after five minutes, as Slurm does.
 */
final class TriggerProgram {
  private static final System.Logger LOG = System.getLogger("slurmctld");
  static final long LIMIT_S = 300;
  private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private TriggerProgram() {}

  /** The command line: setpriv when needed, the program's words, then the event's arguments. */
  static List<String> command(TriggerInfo t, List<String> args, int ownUid) {
    List<String> cmd = new ArrayList<>();
    if (t.getUserId() != ownUid) {
      cmd.addAll(List.of("setpriv", "--reuid=" + Integer.toUnsignedString(t.getUserId()),
          "--regid=" + Integer.toUnsignedString(t.getGroupId()), "--init-groups", "--"));
    }
    for (String word : t.getProgram().strip().split("\\s+")) {
      cmd.add(word);
    }
    cmd.addAll(args);
    return cmd;
  }

  /** Starts the program and watches it on a virtual thread. */
  static void start(TriggerInfo t, List<String> args) {
    List<String> cmd = command(t, args, ownUid());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File("/"))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().clear();
    pb.environment().put("PATH", PATH);
    Thread.ofVirtual().name("trigger-" + t.getId()).start(() -> {
      try {
        Process p = pb.start();
        if (!p.waitFor(LIMIT_S, TimeUnit.SECONDS)) {
          LOG.log(Level.WARNING, "trigger " + t.getId() + ": " + t.getProgram() + " ran over "
              + LIMIT_S + " s: killed");
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
        } else if (p.exitValue() != 0) {
          LOG.log(Level.INFO, "trigger " + t.getId() + ": " + t.getProgram() + " exited " + p.exitValue());
        }
      } catch (IOException e) {
        LOG.log(Level.WARNING, "trigger " + t.getId() + ": cannot run " + t.getProgram() + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  private static int ownUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
  }
}
