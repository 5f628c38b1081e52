package org.corral.slurmd.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup v2 device filter on a real cgroup2 hierarchy mounted for the test (device control
 * in v2 needs no controller, so a bare mount works beside a v1 host). Devices are mknod'ed
 * copies of /dev/full (1:7) and /dev/random (1:8), which open without any driver of their own.
 * Needs root (mount, mknod, bpf); skipped elsewhere.
 */
class BpfDeviceFilterTest {
  @TempDir Path tmp;
  private Path mount;
  private boolean mounted;

  @BeforeEach
  void mountCgroup2() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
    Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    mount = Files.createDirectory(tmp.resolve("cg2"));
    mounted = run(List.of("mount", "-t", "cgroup2", "none", mount.toString())).rc == 0;
    assumeTrue(mounted, "cannot mount cgroup2 here");
    assumeTrue(run(List.of("mknod", "-m", "666", tmp.resolve("gpu0").toString(), "c", "1", "7")).rc == 0);
    assumeTrue(run(List.of("mknod", "-m", "666", tmp.resolve("gpu1").toString(), "c", "1", "8")).rc == 0);
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      try (var dirs = Files.walk(mount)) {
        dirs.filter(Files::isDirectory).filter(d -> !d.equals(mount))
            .sorted(java.util.Comparator.reverseOrder()).forEach(d -> d.toFile().delete());
      }
      run(List.of("umount", mount.toString()));
    }
  }

  @Test
  void deniesTheDevicesGivenAndNothingElseForEveryUser() throws Exception {
    Path job = Files.createDirectory(mount.resolve("job_1"));
    BpfDeviceFilter.deny(job, List.of("c 1:8"));

    String probe = "head -c1 " + tmp.resolve("gpu0") + " >/dev/null && echo gpu0 open; "
        + "head -c1 " + tmp.resolve("gpu1") + " >/dev/null && echo gpu1 open; true";
    Result asRoot = run(List.of("sh", "-c", "echo $$ > " + job.resolve("cgroup.procs") + " && " + probe));
    assertThat(asRoot.out).contains("gpu0 open").doesNotContain("gpu1 open").contains("Operation not permitted");

    Result asNobody = run(List.of("sh", "-c", "echo $$ > " + job.resolve("cgroup.procs")
        + " && exec setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '" + probe + "'"));
    assertThat(asNobody.out).contains("gpu0 open").doesNotContain("gpu1 open");

    Result outside = run(List.of("sh", "-c", probe));
    assertThat(outside.out).contains("gpu0 open").contains("gpu1 open");
  }

  @Test
  void aStepsFilterAddsToItsJobs() throws Exception {
    Path job = Files.createDirectory(mount.resolve("job_2"));
    Path step = Files.createDirectory(job.resolve("step_0"));
    BpfDeviceFilter.deny(job, List.of("c 1:8"));
    BpfDeviceFilter.deny(step, List.of("c 1:7"));
    Result r = run(List.of("sh", "-c", "echo $$ > " + step.resolve("cgroup.procs") + " && head -c1 "
        + tmp.resolve("gpu0") + " >/dev/null && echo gpu0 open; head -c1 " + tmp.resolve("gpu1")
        + " >/dev/null && echo gpu1 open; true"));
    assertThat(r.out).doesNotContain("gpu0 open").doesNotContain("gpu1 open");
  }

  @Test
  void aBadRuleOrDirectoryIsAnErrorWithItsReason() throws Exception {
    Path job = Files.createDirectory(mount.resolve("job_3"));
    assertThatThrownBy(() -> BpfDeviceFilter.deny(job, List.of("c 1:8; rm -rf /")))
        .isInstanceOf(IOException.class).hasMessageContaining("bad device rule");
    assertThatThrownBy(() -> BpfDeviceFilter.deny(mount.resolve("missing"), List.of("c 1:8")))
        .isInstanceOf(IOException.class).hasMessageContaining("missing");
  }

  private record Result(int rc, String out) {}

  private static Result run(List<String> argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out);
  }
}
