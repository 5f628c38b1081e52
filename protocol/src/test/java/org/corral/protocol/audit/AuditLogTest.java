package org.corral.protocol.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobReply;
import org.corral.protocol.msg.SubmitJobRequest;
import org.corral.protocol.msg.UpdateNodeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {
  @TempDir Path dir;

  private static final Peer ALICE = new Peer(1001, 1001, "alice", null);
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T10:00:00.250Z"), ZoneOffset.UTC);

  @Test
  void writesOneLinePerChangeWithWhoWhereWhatAndResult() throws Exception {
    Path file = dir.resolve("logs/audit.log");
    try (AuditLog log = AuditLog.open(file, "slurmctld", "ctl1", CLOCK)) {
      log.record(ALICE, "unix socket client", null, Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder()
          .setSpec(JobSpec.newBuilder().setName("a\"b").setScript("secret"))).build(),
          Response.newBuilder().setSubmitJob(SubmitJobReply.newBuilder().setJobId(7)).build());
      log.record(ALICE, "/10.1.2.3:40000", "slurmrestd", Request.newBuilder().setCancelJobs(
          CancelJobsRequest.newBuilder().addJobIds(8)).build(),
          Response.newBuilder().setErrorCode(SlurmError.ACCESS_DENIED.code()).build());
      log.record(ALICE, "unix socket client", null, Request.newBuilder().setCancelJobs(
          CancelJobsRequest.newBuilder().addJobIds(9).addJobIds(10)).build(),
          Response.newBuilder().setJobResults(JobResultsReply.newBuilder().addResults(JobResult.newBuilder()
              .setJobId(10).setErrorCode(SlurmError.INVALID_JOB_ID.code()))).build());
      log.record(ALICE, "unix socket client", null, Request.newBuilder().setJobInfo(JobInfoRequest.getDefaultInstance())
          .build(), Response.getDefaultInstance());
      log.record(new Peer(0, 0, "root", null), "unix socket client", null, Request.newBuilder().setUpdateNode(
          UpdateNodeRequest.newBuilder().setNodeNames("n[1-2]").setState("DRAIN").setReason("fan")
              .setHasReason(true)).build(), Response.getDefaultInstance());
    }
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).containsExactly(
        "{\"time\":\"2026-11-28T10:00:00.250Z\",\"daemon\":\"slurmctld\",\"user\":\"alice\",\"uid\":1001,"
            + "\"host\":\"ctl1\",\"action\":\"submit\",\"what\":\"JobId=7 JobName=a\\\"b\",\"result\":\"ok\"}",
        "{\"time\":\"2026-11-28T10:00:00.250Z\",\"daemon\":\"slurmctld\",\"user\":\"alice\",\"uid\":1001,"
            + "\"host\":\"10.1.2.3\",\"via\":\"slurmrestd\",\"action\":\"cancel\",\"what\":\"JobId=8\","
            + "\"result\":\"refused\",\"error\":\"Access/permission denied\"}",
        "{\"time\":\"2026-11-28T10:00:00.250Z\",\"daemon\":\"slurmctld\",\"user\":\"alice\",\"uid\":1001,"
            + "\"host\":\"ctl1\",\"action\":\"cancel\",\"what\":\"JobId=9,10\",\"result\":\"failed\","
            + "\"error\":\"JobId=10: Invalid job id specified\"}",
        "{\"time\":\"2026-11-28T10:00:00.250Z\",\"daemon\":\"slurmctld\",\"user\":\"root\",\"uid\":0,"
            + "\"host\":\"ctl1\",\"action\":\"update\",\"what\":\"NodeName=n[1-2] State=DRAIN Reason=fan\","
            + "\"result\":\"ok\"}");
    assertThat(String.join("\n", lines)).doesNotContain("secret");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void noneWritesNothing() {
    AuditLog.NONE.record(ALICE, null, null, Request.newBuilder().setCancelJobs(CancelJobsRequest.newBuilder()
        .addJobIds(1)).build(), Response.getDefaultInstance());
    assertThat(AuditLog.NONE.file()).isEmpty();
  }
}
