package org.corral.cli.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.RpcRecording;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.sacct.SacctCommand;
import org.corral.cli.sacctmgr.SacctmgrCommand;
import org.corral.cli.sbatch.LocalSubmitterFacts;
import org.corral.cli.sbatch.SbatchCommand;
import org.corral.cli.scancel.ScancelCommand;
import org.corral.cli.scontrol.ScontrolCommand;
import org.corral.cli.sinfo.SinfoCommand;
import org.corral.cli.sprio.SprioCommand;
import org.corral.cli.sshare.SshareCommand;
import org.corral.cli.squeue.SqueueCommand;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The live golden suite (golden/live/record.sh): every command line recorded on the reference
 * Slurm 22.05 (live/ref/) is run through Corral's command, which gets the answers Corral's own
 * controller gave for the same line in the same sequence (live/corral/NAME.rpc, replayed), at
 * the time it ran there; stdout, stderr and exit status must be the reference's, byte for byte,
 * after {@link #mask} (times that move between two runs, machine load, slurmd's port, the
 * submitting host). Cases listed in live/differences.txt still differ and are skipped until
 * fixed (docs/compatibility.md); {@code -Dlive.all=true} runs them too, {@code -Dlive.out=DIR}
 * writes what the commands print.
 */
class LiveGoldenTest {
  /**
   * Lines whose difference is not the command's to fix (see docs/compatibility.md): the
   * configuration of another daemon (paths, ports, plugins).
   */
  static final Map<String, String> DEVIATIONS = Map.of(
      "scontrol_show_config", "Corral's daemons have their own paths, ports and plugins");

  /** The users of the recording machine (live/users, NAME:UID lines record.sh writes). */
  private static final UserDirectory USERS = users();

  private static final Map<String, Supplier<CliCommand>> COMMANDS = Map.of(
      "squeue", () -> new SqueueCommand(USERS),
      "sinfo", () -> new SinfoCommand(USERS),
      "scontrol", () -> new ScontrolCommand(USERS),
      "sprio", () -> new SprioCommand(USERS),
      "sacct", () -> new SacctCommand(USERS, 0),
      "scancel", ScancelCommand::new,
      "sacctmgr", SacctmgrCommand::new,
      "sshare", SshareCommand::new,
      "sbatch", () -> new SbatchCommand(InputStream::nullInputStream, new LocalSubmitterFacts()));

  private static final List<Pattern> MASKS = List.of(
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"), // dates and times
      Pattern.compile("(?<![\\d:-])\\d:\\d\\d(?![\\d:])"),          // elapsed M:SS
      Pattern.compile("(?<![\\d:-])00:0\\d:\\d\\d(?![\\d:])"),      // elapsed HH:MM:SS
      Pattern.compile("(?<=CPULoad=)[\\d.]+|(?<=FreeMem=)\\d+"),    // the machine's load
      Pattern.compile("(?m)^\\w{3} \\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}$"), // -l's date line
      // slurmd's port: both systems' nodes run on this one machine, so theirs must differ
      Pattern.compile("(?<=NodeHostName=\\S{1,64} Port=)\\d+"),
      // The submitting host and its session: Slurm names the host as its resolver names the
      // submitter's address (localhost here), Corral as the host names itself (docs/compatibility.md).
      Pattern.compile("(?<=AllocNode:Sid=)\\S{1,64}:\\d+"));

  private static UserDirectory users() {
    Map<String, Integer> byName = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(root().resolve("users"))) {
        if (line.contains(":")) {
          byName.put(line.substring(0, line.indexOf(':')),
              Integer.parseInt(line.substring(line.indexOf(':') + 1).strip()));
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return UserDirectory.of(byName);
  }

  static Path root() throws URISyntaxException {
    return root("live");
  }

  /** A recording's directory under golden/ (its ref/, corral/ and differences.txt). */
  static Path root(String recording) throws URISyntaxException {
    return Path.of(LiveGoldenTest.class.getResource("/golden/" + recording + "/ref").toURI())
        .getParent();
  }

  @TestFactory
  Stream<DynamicTest> matchesTheReference() throws Exception {
    return cases(root(), 150);
  }

  /**
   * One test per case of the recording at root (at least atLeast of them), less those its
   * differences.txt lists and {@link #DEVIATIONS}.
   */
  static Stream<DynamicTest> cases(Path root, int atLeast) throws IOException {
    Path ref = root.resolve("ref");
    List<String> names;
    try (Stream<Path> s = Files.list(ref)) {
      names = s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".args"))
          .map(f -> f.substring(0, f.length() - 5)).sorted().toList();
    }
    assertThat(names).hasSizeGreaterThanOrEqualTo(atLeast);
    // -Dlive.all=true runs the listed differences too (to see which of them now match).
    Set<String> open = Boolean.getBoolean("live.all") ? Set.of()
        : Files.readAllLines(root.resolve("differences.txt")).stream()
            .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split(" ")[0])
            .collect(Collectors.toSet());
    return names.stream().filter(n -> !DEVIATIONS.containsKey(n.substring(4)))
        .filter(n -> !open.contains(n))
        .map(n -> DynamicTest.dynamicTest(n, () -> check(root, n)));
  }

  private static void check(Path root, String name) throws Exception {
    Path ref = root.resolve("ref");
    Path corral = root.resolve("corral");
    List<String> args = Files.readAllLines(ref.resolve(name + ".args"));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("HOME", "/root");
    env.put("PWD", root().resolve("files").toString()); // every recording runs in live/files
    for (String line : Files.readAllLines(ref.resolve(name + ".env"))) {
      env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
    }
    String tool = args.get(0);
    long time = Long.parseLong(Files.readString(corral.resolve(name + ".time")).strip());
    List<RpcRecording.Exchange> rpc = RpcRecording.read(corral.resolve(name + ".rpc"));
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(tool, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env,
        Clock.fixed(Instant.ofEpochSecond(time), ZoneId.systemDefault()),
        RpcRecording.replay(rpc, 0), RpcRecording.replay(rpc, 1));
    int rc;
    try {
      rc = COMMANDS.get(tool).get().run(args.subList(1, args.size()), cli);
    } catch (RuntimeException e) {
      rc = 1;
    }
    String dump = System.getProperty("live.out"); // -Dlive.out=DIR: what today's commands print
    if (dump != null) {
      Files.createDirectories(Path.of(dump));
      Files.writeString(Path.of(dump, name + ".out"), out.toString(StandardCharsets.UTF_8));
      Files.writeString(Path.of(dump, name + ".err"), err.toString(StandardCharsets.UTF_8));
      Files.writeString(Path.of(dump, name + ".rc"), rc + "\n");
    }
    assertThat(mask(out.toString(StandardCharsets.UTF_8))).as(name + " stdout")
        .isEqualTo(mask(Files.readString(ref.resolve(name + ".out"))));
    assertThat(mask(err.toString(StandardCharsets.UTF_8))).as(name + " stderr")
        .isEqualTo(mask(Files.readString(ref.resolve(name + ".err"))));
    assertThat(rc).as(name + " exit status")
        .isEqualTo(Integer.parseInt(Files.readString(ref.resolve(name + ".rc")).strip()));
  }

  static String mask(String text) {
    for (Pattern p : MASKS) {
      text = p.matcher(text).replaceAll("#");
    }
    return text;
  }
}
