package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process with FailFast installed whose thread dies of an Error (here out of memory, as the
 * state writer did on a 50 MB script) exits non-zero with a line saying so, instead of living
 * on without the thread; one whose thread ends normally lives on.
 */
class FailFastTest {
  /** Run in a child JVM: a platform thread dies of an OutOfMemoryError, main waits. */
  public static final class DyingThreadMain {
    public static void main(String[] args) throws Exception {
      FailFast.install();
      Thread t = Thread.ofPlatform().name("state-writer").start(() -> {
        if (args.length > 0) {
          throw new OutOfMemoryError("Java heap space");
        }
      });
      t.join();
      Thread.sleep(2000);
      System.out.println("still alive");
    }
  }

  private static Process child(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), DyingThreadMain.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  @Test
  void aThreadDyingOfAnErrorEndsTheProcessWithStatus70() throws Exception {
    Process p = child("die");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isEqualTo(FailFast.EXIT_STATUS);
    assertThat(out).contains("fatal: thread state-writer died (java.lang.OutOfMemoryError: Java heap space)")
        .doesNotContain("still alive");
  }

  @Test
  void aThreadEndingNormallyLeavesTheProcessAlone() throws Exception {
    Process p = child();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("still alive");
  }
}
