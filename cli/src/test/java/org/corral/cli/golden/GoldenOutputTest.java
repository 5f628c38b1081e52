package org.corral.cli.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.scontrol.ScontrolCommand;
import org.corral.cli.sinfo.SinfoCommand;
import org.corral.cli.squeue.SqueueCommand;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of golden/cases.txt through Corral's command against {@link ReferenceState}
 * and compares output, error output and exit status with what Slurm 22.05 printed for it.
 */
class GoldenOutputTest {
  private static final Map<String, Supplier<CliCommand>> COMMANDS = Map.of(
      "squeue", () -> new SqueueCommand(ReferenceState.USERS),
      "sinfo", () -> new SinfoCommand(ReferenceState.USERS),
      "scontrol", () -> new ScontrolCommand(ReferenceState.USERS));

  record Case(String tool, String name, Map<String, String> env, List<String> args) {}

  @TestFactory
  Stream<DynamicTest> goldenOutputs() throws IOException {
    List<String> ids = resource("jobids.txt").lines().toList();
    return resource("cases.txt").lines()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .map(l -> parse(l, ids))
        .filter(c -> COMMANDS.containsKey(c.tool()))
        .map(c -> DynamicTest.dynamicTest(c.tool() + "/" + c.name(), () -> check(c)));
  }

  private static void check(Case c) throws IOException {
    String base = c.tool() + "/" + c.name();
    long time = Long.parseLong(resource(base + ".time").trim());
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(c.tool(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), c.env(),
        Clock.fixed(Instant.ofEpochSecond(time), ZoneOffset.UTC),
        () -> FakeController.of(ReferenceState.jobs(), ReferenceState.nodes(),
            ReferenceState.partitions(), time));
    int rc = COMMANDS.get(c.tool()).get().run(c.args(), cli);
    assertThat(out.toString(StandardCharsets.UTF_8)).as(base + " stdout")
        .isEqualTo(normalize(resource(base + ".out"), c.tool()));
    assertThat(err.toString(StandardCharsets.UTF_8)).as(base + " stderr")
        .isEqualTo(normalize(resource(base + ".err"), c.tool()));
    assertThat(rc).as(base + " exit status")
        .isEqualTo(Integer.parseInt(resource(base + ".rc").trim()));
  }

  /**
   * What Corral cannot reproduce from its data: argv[0] (the recording ran /usr/bin/TOOL), the
   * submitting process's session id, which scheduler pass started a job, and a node's machine
   * type (not reported by Corral's slurmd yet; Slurm prints (null) when it does not know it).
   */
  private static String normalize(String recorded, String tool) {
    return recorded.replace("/usr/bin/" + tool + ":", tool + ":")
        .replaceAll("AllocNode:Sid=(\\S+):\\d+", "AllocNode:Sid=$1:0")
        .replace("Scheduler=Backfill", "Scheduler=Main")
        .replace("Arch=x86_64", "Arch=(null)");
  }

  static Case parse(String line, List<String> ids) {
    for (int i = ids.size() - 1; i >= 0; i--) {
      line = line.replace("JOB" + (i + 1), ids.get(i));
    }
    List<String> words = shellWords(line);
    Map<String, String> env = new LinkedHashMap<>();
    int i = 2;
    while (i < words.size() && words.get(i).matches("[A-Z_]+=.*")) {
      String w = words.get(i++);
      env.put(w.substring(0, w.indexOf('=')), w.substring(w.indexOf('=') + 1));
    }
    return new Case(words.get(0), words.get(1), env, words.subList(i, words.size()));
  }

  /** Splits at blanks; single quotes group, as sh does. */
  static List<String> shellWords(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder cur = null;
    boolean quoted = false;
    for (char ch : line.toCharArray()) {
      if (ch == '\'') {
        quoted = !quoted;
        cur = cur == null ? new StringBuilder() : cur;
      } else if (ch == ' ' && !quoted) {
        if (cur != null) {
          words.add(cur.toString());
          cur = null;
        }
      } else {
        cur = cur == null ? new StringBuilder() : cur;
        cur.append(ch);
      }
    }
    if (cur != null) {
      words.add(cur.toString());
    }
    return words;
  }

  static String resource(String path) throws IOException {
    try (InputStream in = GoldenOutputTest.class.getResourceAsStream("/golden/" + path)) {
      if (in == null) {
        throw new IOException("missing golden resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
