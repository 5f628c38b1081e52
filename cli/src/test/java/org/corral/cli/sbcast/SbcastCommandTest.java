package org.corral.cli.sbcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Inflater;
import org.corral.cli.CommandRun;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.FileBcastError;
import org.corral.protocol.msg.FileBcastReply;
import org.corral.protocol.msg.FileBcastRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sbcast's options, messages and exit codes, as recorded from Slurm 22.05, against a fake controller. */
class SbcastCommandTest {
  @TempDir
  Path dir;
  private final List<FileBcastRequest> sent = new ArrayList<>();

  private CommandRun run(Map<String, String> env, Response answer, String... args) {
    RpcChannel controller = request -> {
      sent.add(request.getFileBcast());
      return answer;
    };
    return CommandRun.of(new SbcastCommand(), "sbcast", env, Clock.systemUTC(), controller, List.of(args));
  }

  private CommandRun run(String... args) {
    return run(Map.of(), ok(), args);
  }

  private static Response ok() {
    return Response.newBuilder().setFileBcast(FileBcastReply.getDefaultInstance()).build();
  }

  private Path source(int size) throws Exception {
    Path f = dir.resolve("src");
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    Files.write(f, data);
    return f;
  }

  @Test
  void aFileGoesInBlocksOfTheSizeAskedWithItsModeAndTimes() throws Exception {
    Path src = source(2 * (1 << 20) + 5);
    Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxr-x---"));
    Files.setLastModifiedTime(src, FileTime.fromMillis(1_577_934_245_000L));
    CommandRun r = run("-j", "7", "-p", "-f", "-s", "1m", src.toString(), "/tmp/dest");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEmpty();
    assertThat(sent).extracting(FileBcastRequest::getOffset).containsExactly(0L, 1L << 20, 2L << 20);
    assertThat(sent).extracting(FileBcastRequest::getFirst).containsExactly(true, false, false);
    assertThat(sent).extracting(FileBcastRequest::getLast).containsExactly(false, false, true);
    assertThat(sent.get(2).getData().size()).isEqualTo(5);
    FileBcastRequest first = sent.get(0);
    assertThat(first.getJobId()).isEqualTo(7);
    assertThat(first.getPath()).isEqualTo("/tmp/dest");
    assertThat(first.getMode()).isEqualTo(0750);
    assertThat(first.getMtime()).isEqualTo(1_577_934_245L);
    assertThat(first.getForce()).isTrue();
    assertThat(first.getPreserve()).isTrue();
    byte[] whole = new byte[2 * (1 << 20) + 5];
    int at = 0;
    for (FileBcastRequest b : sent) {
      b.getData().copyTo(whole, at);
      at += b.getData().size();
    }
    assertThat(whole).isEqualTo(Files.readAllBytes(src));
  }

  @Test
  void blocksAreAtMostFourMebibytes() throws Exception {
    Path src = source(9 << 20);
    assertThat(run("-j", "7", src.toString(), "/tmp/d").exitCode()).isZero(); // Slurm's default: 8 MB
    assertThat(sent).extracting(FileBcastRequest::getOffset).containsExactly(0L, 4L << 20, 8L << 20);
  }

  @Test
  void aFileOfExactlyOneBlockIsSentOnceAndAnEmptyOneWithSlurmsWarning() throws Exception {
    Path src = source(4096);
    assertThat(run("-j", "7", "-s", "4k", src.toString(), "/tmp/d").exitCode()).isZero();
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getFirst() && sent.get(0).getLast()).isTrue();
    sent.clear();
    Path empty = Files.createFile(dir.resolve("empty"));
    CommandRun r = run("-j", "7", empty.toString(), "/tmp/d");
    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEqualTo("sbcast: error: Warning: file `" + empty + "` is empty.\n");
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getDataLength()).isZero();
  }

  @Test
  void compressedBlocksInflateToTheFile() throws Exception {
    Path src = dir.resolve("text");
    Files.writeString(src, "a".repeat(100_000));
    assertThat(run("-j", "7", "-C", src.toString(), "/tmp/d").exitCode()).isZero();
    FileBcastRequest b = sent.get(0);
    assertThat(b.getCompressed()).isTrue();
    assertThat(b.getData().size()).isLessThan(10_000);
    Inflater inflater = new Inflater();
    inflater.setInput(b.getData().toByteArray());
    byte[] out = new byte[b.getDataLength()];
    assertThat(inflater.inflate(out)).isEqualTo(100_000);
    assertThat(new String(out)).isEqualTo("a".repeat(100_000));
  }

  @Test
  void anUnknownCompressionLibraryIsReportedAndCompressionDropped() throws Exception {
    Path src = source(10);
    CommandRun r = run("-j", "7", "-Cfoo", src.toString(), "/tmp/d");
    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEqualTo("sbcast: error: Compression type 'foo' unknown, disabling compression support.\n");
    assertThat(sent.get(0).getCompressed()).isFalse();
  }

  @Test
  void theJobComesFromSlurmJobIdAndARelativeDestinationFromTheCurrentDirectory() throws Exception {
    Path src = source(10);
    CommandRun r = run(Map.of("SLURM_JOB_ID", "42", "SLURM_STEP_ID", "3", "SBCAST_FORCE", "1"), ok(),
        src.toString(), "rel");
    assertThat(r.exitCode()).isZero();
    assertThat(sent.get(0).getJobId()).isEqualTo(42);
    assertThat(sent.get(0).getStep()).isEmpty(); // SLURM_STEP_ID is not sbcast's
    assertThat(sent.get(0).getForce()).isTrue();
    assertThat(sent.get(0).getPath()).isEqualTo(Path.of("").toAbsolutePath().resolve("rel").toString());
  }

  @Test
  void usageErrorsAreSlurms() throws Exception {
    CommandRun none = run();
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.err()).isEqualTo("Need two file names, have 0 names\nTry \"sbcast --help\" for more information\n");
    CommandRun noJob = run("/etc/hostname", "/tmp/x");
    assertThat(noJob.exitCode()).isEqualTo(1);
    assertThat(noJob.err()).isEqualTo("sbcast: error: Need a job id to run this command.  Run from within a Slurm job"
        + " or use the --jobid option.\n");
    CommandRun bad = run("-x", "a", "b");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("sbcast: invalid option -- 'x'\nTry \"sbcast --help\" for more information\n");
    assertThat(sent).isEmpty();
  }

  @Test
  void sourceProblemsAreReportedBeforeAnythingIsSent() throws Exception {
    CommandRun missing = run("-j", "7", dir.resolve("nope").toString(), "/tmp/x");
    assertThat(missing.exitCode()).isEqualTo(255);
    assertThat(missing.err()).isEqualTo("sbcast: error: Can't open `" + dir.resolve("nope")
        + "`: No such file or directory\n");
    CommandRun directory = run("-j", "7", dir.toString(), "/tmp/x");
    assertThat(directory.exitCode()).isEqualTo(255);
    assertThat(directory.err()).isEqualTo("sbcast: error: Can't mmap file `" + dir + "`, No such device.\n");
    CommandRun size = run("-j", "7", "-s", "abc", dir.resolve("nope").toString(), "/tmp/x");
    assertThat(size.err()).startsWith("size specification is invalid, ignored\n");
    assertThat(sent).isEmpty();
  }

  @Test
  void aRefusedJobAndNodesThatFailAreReportedAsSlurmDoes() throws Exception {
    Path src = source(10);
    CommandRun refused = run(Map.of(), Response.newBuilder().setErrorCode(SlurmError.USER_ID_MISSING.code())
        .setErrorMessage("Invalid user id").build(), "-j", "2.0", src.toString(), "/tmp/x");
    assertThat(refused.exitCode()).isEqualTo(255);
    assertThat(refused.err()).isEqualTo("sbcast: error: Slurm job 2.0 lookup error: Invalid user id\n");
    CommandRun notNumber = run(Map.of(), Response.newBuilder().setErrorCode(SlurmError.INVALID_JOB_ID.code())
        .setErrorMessage("Invalid job id specified").build(), "-j", "abc", src.toString(), "/tmp/x");
    assertThat(notNumber.err()).isEqualTo("sbcast: error: Slurm job 0 lookup error: Invalid job id specified\n");
    Response exists = Response.newBuilder().setFileBcast(FileBcastReply.newBuilder()
        .addErrors(FileBcastError.newBuilder().setNode("n1").setErrno(17).setMessage("File exists"))
        .addErrors(FileBcastError.newBuilder().setNode("n2").setErrno(17).setMessage("File exists"))).build();
    CommandRun failed = run(Map.of(), exists, "-j", "2", src.toString(), "/tmp/x");
    assertThat(failed.exitCode()).isEqualTo(17);
    assertThat(failed.err()).isEqualTo("sbcast: error: REQUEST_FILE_BCAST(n1): File exists\n"
        + "sbcast: error: REQUEST_FILE_BCAST(n2): File exists\n");
  }

  @Test
  void helpAndUsageAreSlurms() {
    assertThat(run("--usage").out()).isEqualTo("Usage: sbcast [--exclude] [-CfFjpvV] [--send-libs] SOURCE DEST\n");
    assertThat(run("--help").out()).startsWith("Usage: sbcast [OPTIONS] SOURCE DEST\n"
        + "  -C, --compress[=lib]  compress the file being transmitted\n");
  }

  @Test
  void bcastParametersGiveTheDestinationDirectoryAndCompression() {
    BcastParameters p = BcastParameters.of("DestDir=/scratch,Compression=lz4");
    assertThat(p.destDir()).isEqualTo("/scratch");
    assertThat(p.compression()).isEqualTo("lz4");
    assertThat(SbcastCommand.destination("bin/a.out", "/scratch")).isEqualTo("/scratch/bin/a.out");
    assertThat(SbcastCommand.destination("/abs", "/scratch")).isEqualTo("/abs");
    assertThat(JobStep.parse("12+1.batch")).isEqualTo(new JobStep(12, "batch"));
    assertThat(JobStep.parse("x")).isEqualTo(new JobStep(0, ""));
  }
}
