package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.format.UserDirectory;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.JobResult;
import org.corral.protocol.msg.JobResultsReply;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/** scontrol update NodeName=... and requeue/requeuehold: what is sent, Slurm 22.05's messages. */
class UpdateAndRequeueTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<Request> sent = new ArrayList<>();

  private int run(RpcChannel channel, String... args) {
    Cli cli = new Cli("scontrol", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.systemUTC(),
        () -> request -> {
          sent.add(request);
          return channel.call(request);
        });
    return new ScontrolCommand(UserDirectory.none()).run(List.of(args), cli);
  }

  private int run(String... args) {
    return run(r -> Response.getDefaultInstance(), args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void drainSendsNodesStateAndReason() {
    assertThat(run("update", "NodeName=n[1-2]", "State=DRAIN", "Reason=bad disk")).isZero();
    var r = sent.get(0).getUpdateNode();
    assertThat(r.getNodeNames()).isEqualTo("n[1-2]");
    assertThat(r.getState()).isEqualTo("DRAIN");
    assertThat(r.getReason()).isEqualTo("bad disk");
    assertThat(r.getHasReason()).isTrue();
    assertThat(out.size() + err.size()).isZero();
  }

  @Test
  void featuresActiveFeaturesAndWeightAreSent() {
    assertThat(run("update", "NodeName=n1", "Features=a,b", "ActiveFeatures=a", "Weight=5")).isZero();
    var r = sent.get(0).getUpdateNode();
    assertThat(r.getFeatures()).isEqualTo("a,b");
    assertThat(r.getActiveFeatures()).isEqualTo("a");
    assertThat(r.getWeight()).isEqualTo(5);
    assertThat(r.getState()).isEmpty();
    assertThat(r.getHasReason()).isFalse();
    assertThat(run("update", "nodename=n1", "availablefeatures=")).isZero();
    assertThat(sent.get(1).getUpdateNode().hasFeatures()).isTrue();
    assertThat(sent.get(1).getUpdateNode().hasWeight()).isFalse();
    assertThat(out.size() + err.size()).isZero();
  }

  @Test
  void badWeightsUseSlurmsWords() {
    assertThat(run("update", "nodename=n1", "weight=abc")).isEqualTo(1);
    assertThat(run("update", "nodename=n1", "weight=-1")).isEqualTo(1);
    assertThat(run("update", "nodename=n1", "weight=4294967295")).isEqualTo(1);
    assertThat(sent).isEmpty();
    assertThat(err()).isEqualTo("""
        scontrol: error: Weight value (abc) is not a valid number
        No changes specified
        scontrol: error: Weight value (-1) is less than zero
        No changes specified
        scontrol: error: Weight value (4294967295) is greater than 4294967280
        No changes specified
        """);
  }

  @Test
  void activeFeaturesOutsideTheAvailableOnesAreRefusedInSlurmsWords() {
    assertThat(run(r -> Response.newBuilder().setErrorCode(SlurmError.ACTIVE_FEATURE_NOT_SUBSET.code()).build(),
        "update", "NodeName=n1", "ActiveFeatures=c")).isEqualTo(1);
    assertThat(err()).isEqualTo("slurm_update error: Active features not subset of available features\n");
  }

  @Test
  void drainWithoutReasonIsRefusedBeforeAsking() {
    assertThat(run("update", "nodename=n1", "state=drain")).isEqualTo(1);
    assertThat(sent).isEmpty();
    assertThat(err()).isEqualTo("You must specify a reason when DOWNING or DRAINING a node. Request denied\n");
  }

  @Test
  void failWithoutReasonIsRefusedAsTheReferenceRefusesItAndWithOneIsSent() {
    assertThat(run("update", "nodename=n1", "state=fail")).isEqualTo(1);
    assertThat(sent).isEmpty();
    assertThat(err()).isEqualTo("You must specify a reason when DOWNING or DRAINING a node. Request denied\n");
    assertThat(run("update", "nodename=n1", "state=fail", "reason=fan noise")).isZero();
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getUpdateNode().getState()).isEqualTo("fail");
    assertThat(sent.get(0).getUpdateNode().getReason()).isEqualTo("fan noise");
  }

  @Test
  void unknownStateAndParameterAndMissingEntityUseSlurmsWords() {
    assertThat(run("update", "NodeName=n1", "State=BOGUS")).isEqualTo(1);
    assertThat(err()).isEqualTo("""
        Invalid input: State=BOGUS
        Request aborted
        Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN
        Not all states are valid given a node's prior state
        """);
    err.reset();
    assertThat(run("update", "NodeName=n1", "Foo=bar")).isEqualTo(1);
    assertThat(err()).isEqualTo("Update of this parameter is not supported: Foo=bar\nRequest aborted\n");
    err.reset();
    assertThat(run("update", "State=DRAIN", "Reason=x")).isEqualTo(1);
    assertThat(err()).isEqualTo("No valid entity in update command\nInput line must include "
        + "\"NodeName\", \"PartitionName\", \"Reservation\", \"JobId\", or \"SlurmctldDebug\"\n");
    err.reset();
    assertThat(run("update")).isEqualTo(1);
    assertThat(err()).isEqualTo("too few arguments for update keyword\n");
    assertThat(sent).isEmpty();
  }

  @Test
  void controllerRefusalIsPrintedAsSlurmUpdateError() {
    int rc = run(r -> Response.newBuilder().setErrorCode(SlurmError.USER_ID_MISSING.code()).build(),
        "update", "NodeName=n1", "State=RESUME");
    assertThat(rc).isEqualTo(1);
    assertThat(err()).isEqualTo("slurm_update error: Invalid user id\n");
  }

  @Test
  void requeueReportsEachRefusedJob() {
    int rc = run(r -> Response.newBuilder().setJobResults(JobResultsReply.newBuilder()
        .addResults(result(5, SlurmError.JOB_PENDING)).addResults(result(6, SlurmError.DISABLED))
        .addResults(result(7, SlurmError.SUCCESS))).build(), "requeue", "5,6", "7");
    assertThat(rc).isEqualTo(1);
    assertThat(sent.get(0).getRequeueJobs().getJobIdsList()).containsExactly(5, 6, 7);
    assertThat(sent.get(0).getRequeueJobs().getHold()).isFalse();
    assertThat(err()).isEqualTo("Job is pending execution for job 5\n"
        + "Requested operation is presently disabled for job 6\n");
  }

  @Test
  void requeueholdAndBadIds() {
    assertThat(run("requeuehold", "State=SpecialExit", "12")).isZero();
    assertThat(sent.get(0).getRequeueJobs().getHold()).isTrue();
    assertThat(sent.get(0).getRequeueJobs().getSpecialExit()).isTrue();
    assertThat(run("requeue", "abc")).isEqualTo(1);
    assertThat(err()).isEqualTo("Invalid job id specified for job abc\n");
    err.reset();
    assertThat(run("requeuehold")).isEqualTo(1);
    assertThat(err()).isEqualTo("too few arguments for keyword:requeuehold\n");
  }

  private static JobResult result(int id, SlurmError e) {
    return JobResult.newBuilder().setJobId(id).setErrorCode(e.code()).build();
  }

  @Test
  void jobUpdatesAreCheckedThenSentAndRefusalsNamedPerJob() {
    assertThat(run("update", "JobId=7,8", "TimeLimit=1:00:00", "Nice=5", "JobName=x")).isZero();
    var req = sent.get(0).getUpdateJob();
    assertThat(req.getJobIdsList()).containsExactly(7, 8);
    assertThat(req.getChangesMap()).containsEntry("timelimit", "60").containsEntry("nice", "5")
        .containsEntry("jobname", "x");

    assertThat(run("update", "jobid=7", "timelimit=xyz")).isEqualTo(1);
    assertThat(err()).isEqualTo("scontrol: error: Invalid TimeLimit value\n");
    err.reset();
    assertThat(run("update", "jobid=7", "bogus=1")).isEqualTo(1);
    assertThat(err()).isEqualTo("Update of this parameter is not supported: bogus=1\nRequest aborted\n");
    err.reset();
    RpcChannel refusing = r -> Response.newBuilder().setJobResults(org.corral.protocol.msg.JobResultsReply
        .newBuilder().addResults(org.corral.protocol.msg.JobResult.newBuilder().setJobId(7)
            .setErrorCode(org.corral.common.SlurmError.ACCESS_DENIED.code()))).build();
    assertThat(run(refusing, "update", "jobid=7", "nice=-5")).isEqualTo(1);
    assertThat(err()).isEqualTo("Access/permission denied for job 7\n");
  }
}
