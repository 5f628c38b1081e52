package org.corral.slurmd.cgroup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * ConstrainDevices on cgroup v2, where the kernel filters device access through a
 * BPF_PROG_TYPE_CGROUP_DEVICE program attached to the cgroup (v2 has no devices controller).
 * Java 21 cannot make the bpf(2) call without preview features, so a short perl program
 * ({@code device-filter.pl}, perl being on every node for the job launcher) assembles the
 * program, loads it and attaches it; it is fed on standard input, so nothing is installed.
 */
final class BpfDeviceFilter {
  private static final String SCRIPT = "device-filter.pl";

  private BpfDeviceFilter() {}

  /** Denies the processes under {@code cgroupDir} these devices ("c 195:1"); every other stays open. */
  static void deny(Path cgroupDir, List<String> devices) throws IOException {
    if (devices.isEmpty()) {
      return;
    }
    List<String> argv = new ArrayList<>(List.of("perl", "-", cgroupDir.toString()));
    argv.addAll(devices);
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    try (InputStream script = BpfDeviceFilter.class.getResourceAsStream(SCRIPT);
        OutputStream in = p.getOutputStream()) {
      if (script == null) {
        p.destroyForcibly();
        throw new IOException("resource missing: " + SCRIPT);
      }
      script.transferTo(in);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("device filter for " + cgroupDir + ": no answer");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted while attaching the device filter to " + cgroupDir);
    }
    if (p.exitValue() != 0) {
      throw new IOException("cannot attach the device filter to " + cgroupDir + ": " + out);
    }
  }
}
