package org.corral.cli.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.ArchiveReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sacctmgr archive dump/load against the reference Slurm 22.05 (golden/record-archive.sh): the
 * client's parsing, checks, prompt and messages byte for byte, with a slurmdbd answering as
 * Corral's does (ArchiveServiceTest checks slurmdbd gives exactly these answers): no privilege
 * for the ar_1x cases run as a plain user, an unknown cluster with something to purge, a missing
 * file, a file that is not an archive.
 */
class SacctmgrArchiveGoldenTest {
  static final Path GOLDEN = SacctmgrGoldenTest.GOLDEN;

  private static Response slurmdbd(Request r, boolean admin) {
    if (!admin) {
      return error(SlurmError.ACCESS_DENIED, "Your user doesn't have privilege to perform this action");
    }
    if (r.hasArchiveDump()) {
      return r.getArchiveDump().getPurgeJobAfter().isEmpty() ? ok() : error(SlurmError.UNEXPECTED, "Error with request.");
    }
    String file = r.getArchiveLoad().getFile();
    if (file.isEmpty()) {
      return error(SlurmError.UNEXPECTED, "Error with request.");
    }
    return Files.exists(Path.of(file)) ? error(SlurmError.BAD_ADDRESS, "Error with request.")
        : error(SlurmError.NO_SUCH_FILE, "No archive file given to recover.");
  }

  private static Response ok() {
    return Response.newBuilder().setArchive(ArchiveReply.getDefaultInstance()).build();
  }

  private static Response error(SlurmError e, String comment) {
    return Response.newBuilder().setErrorCode(e.code()).setErrorMessage(comment).build();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ar_01_dump_nothing_to_purge", "ar_02_dump_unknown_condition", "ar_03_dump_bad_purge_string",
      "ar_04_dump_bad_purge_unit", "ar_05_dump_missing_dir", "ar_06_dump_dir_not_a_dir", "ar_07_dump_unknown_cluster",
      "ar_08_load_missing_file", "ar_09_load_not_an_archive", "ar_10_load_no_file", "ar_11_load_unknown_option",
      "ar_12_no_entity", "ar_13_bad_entity", "ar_14_dump_prompt_no", "ar_15_dump_not_admin", "ar_16_load_not_admin"})
  void matchesTheReference(String name) throws Exception {
    boolean admin = !name.endsWith("_not_admin");
    List<String> sent = new ArrayList<>();
    RpcChannel fake = request -> {
      sent.add(request.getBodyCase().name());
      return slurmdbd(request, admin);
    };
    List<String> args = SacctmgrGoldenTest.words(Files.readString(GOLDEN.resolve(name + ".cmd")).strip());
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli("sacctmgr", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.systemUTC(), () -> fake, () -> fake);
    var stdin = new ByteArrayInputStream(name.contains("prompt_no") ? "n\n".getBytes(StandardCharsets.UTF_8)
        : new byte[0]);
    int rc = new SacctmgrCommand(stdin, 5_000).run(args.subList(1, args.size()), cli);

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(GOLDEN.resolve(name + ".out")));
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(GOLDEN.resolve(name + ".err")));
    assertThat(rc).isEqualTo(Integer.parseInt(Files.readString(GOLDEN.resolve(name + ".rc")).strip()));
    if (List.of("02", "03", "04", "05", "06", "11", "12", "13", "14").contains(name.substring(3, 5))) {
      assertThat(sent).as("refused or declined before slurmdbd is asked").isEmpty();
    }
  }
}
