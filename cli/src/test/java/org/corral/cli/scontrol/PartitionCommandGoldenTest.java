package org.corral.cli.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.cli.CommandRun;
import org.corral.cli.format.UserDirectory;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

/**
 * scontrol create/update/delete partition and reconfigure: what is sent, and the messages
 * recorded from Slurm 22.05 (scontrol against a private reference cluster) for each refusal.
 */
class PartitionCommandGoldenTest {
  private final StringBuilder out = new StringBuilder();
  private final StringBuilder err = new StringBuilder();
  private final List<Request> sent = new ArrayList<>();

  private int run(RpcChannel channel, String... args) {
    CommandRun r = CommandRun.of(new ScontrolCommand(UserDirectory.none()), "scontrol", Map.of(), Clock.systemUTC(),
        request -> {
          sent.add(request);
          return channel.call(request);
        }, List.of(args));
    out.append(r.out());
    err.append(r.err());
    return r.exitCode();
  }

  private int run(String... args) {
    return run(r -> Response.getDefaultInstance(), args);
  }

  private static RpcChannel refusing(SlurmError e) {
    return r -> Response.newBuilder().setErrorCode(e.code()).setErrorMessage(e.message()).build();
  }

  private String err() {
    return err.toString();
  }

  @Test
  void createSendsNormalizedFieldsAndIsSilent() {
    assertThat(run("create", "partitionname=p1", "nodes=n[1-2]", "maxtime=1-00:00:00", "defaulttime=30",
        "prioritytier=3", "oversubscribe=force:2", "allowaccounts=a,b", "maxnodes=2", "minnodes=1",
        "hidden=yes")).isZero();
    var r = sent.get(0).getUpdatePartition();
    assertThat(r.getCreate()).isTrue();
    assertThat(r.getFieldsMap()).containsEntry("partitionname", "p1").containsEntry("nodes", "n[1-2]")
        .containsEntry("maxtime", "1440").containsEntry("defaulttime", "30").containsEntry("prioritytier", "3")
        .containsEntry("oversubscribe", "FORCE:2").containsEntry("allowaccounts", "a,b")
        .containsEntry("maxnodes", "2").containsEntry("minnodes", "1").containsEntry("hidden", "yes");
    assertThat(out.length() + err.length()).isZero();
  }

  @Test
  void updateMaxTimeInfiniteAndPartitionSynonym() {
    assertThat(run("update", "partition=p1", "maxtime=infinite", "default=yes")).isZero();
    var r = sent.get(0).getUpdatePartition();
    assertThat(r.getCreate()).isFalse();
    assertThat(r.getFieldsMap()).containsEntry("partitionname", "p1").containsEntry("maxtime", "4294967295")
        .containsEntry("default", "yes");
  }

  @Test
  void createRefusalsAsTheReference() {
    assertThat(run("create", "partitionname=p5", "maxtime=abc")).isEqualTo(1);
    assertThat(run("create", "partitionname=p6", "foo=bar")).isEqualTo(1);
    assertThat(run("create", "partitionname=p8", "state=bogus")).isEqualTo(1);
    assertThat(run("create", "partitionname=p9", "oversubscribe=bogus")).isEqualTo(1);
    assertThat(run("create", "partitionname=p10", "maxnodes=abc")).isEqualTo(1);
    assertThat(run("create", "partitionname=p11", "default=maybe")).isEqualTo(1);
    assertThat(run("create", "partitionname=p12", "prioritytier=abc")).isEqualTo(1);
    assertThat(sent).isEmpty();
    assertThat(err()).isEqualTo("""
        scontrol: error: Invalid input maxtime=abc
        scontrol: error: Update of this parameter is not supported: foo=bar

        scontrol: error: Request aborted
        scontrol: error: Invalid input: state=bogus
        scontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE
        scontrol: error: Invalid input: oversubscribe=bogus
        scontrol: error: Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#
        scontrol: error: Invalid numeric value "abc" for MaxNodes.
        scontrol: error: Invalid input: default=maybe
        scontrol: error: Acceptable Default values are YES and NO
        scontrol: error: Invalid PriorityTier value: abc
        """);
  }

  @Test
  void controllerRefusalsOfCreate() {
    assertThat(run(refusing(SlurmError.INVALID_PARTITION_NAME), "create", "partitionname=p1", "nodes=n1"))
        .isEqualTo(1);
    assertThat(run(refusing(SlurmError.INVALID_NODE_NAME), "create", "partitionname=p4", "nodes=nosuch"))
        .isEqualTo(1);
    assertThat(err()).isEqualTo("""
        Error creating the partition: Invalid partition name specified
        Error creating the partition: Invalid node name specified
        """);
  }

  @Test
  void updateRefusalsAsTheReference() {
    assertThat(run("update", "partitionname=p1", "state=bogus")).isEqualTo(1);
    assertThat(run("update", "partitionname=p1", "foo=bar")).isEqualTo(1);
    assertThat(run("update", "partitionname=p1", "maxtime=abc")).isEqualTo(1);
    assertThat(run("update", "partitionname=p1")).isEqualTo(1);
    assertThat(run("update", "partitionname=debug", "gracetime=abc")).isEqualTo(1);
    assertThat(run("update", "partitionname=debug", "hidden=maybe")).isEqualTo(1);
    assertThat(run("update", "partitionname=debug", "maxmempernode=abc")).isEqualTo(1);
    assertThat(run("update", "partitionname=debug", "preemptmode=bogus")).isEqualTo(1);
    assertThat(sent).isEmpty();
    assertThat(run(refusing(SlurmError.INVALID_PARTITION_NAME), "update", "partitionname=nosuch", "maxtime=5"))
        .isEqualTo(1);
    assertThat(run(refusing(SlurmError.USER_ID_MISSING), "update", "partitionname=debug", "MaxTime=5"))
        .isEqualTo(1);
    assertThat(err()).isEqualTo("""
        scontrol: error: Invalid input: state=bogus
        scontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE
        slurm_update error: No error
        scontrol: error: Update of this parameter is not supported: foo=bar

        scontrol: error: Request aborted
        slurm_update error: No error
        scontrol: error: Invalid input maxtime=abc
        slurm_update error: No error
        scontrol: error: No changes specified
        scontrol: error: Invalid GraceTime value: abc
        slurm_update error: No error
        scontrol: error: Invalid input: hidden=maybe
        scontrol: error: Acceptable Hidden values are YES and NO
        slurm_update error: No error
        scontrol: error: Invalid MaxMemPerNode value: abc
        slurm_update error: No error
        scontrol: error: Invalid input: preemptmode=bogus
        slurm_update error: No error
        slurm_update error: Invalid partition name specified
        slurm_update error: Invalid user id
        """);
  }

  @Test
  void badMinNodesIsReportedAndTheRestGoesOn() {
    assertThat(run("update", "partitionname=debug", "minnodes=abc")).isZero();
    assertThat(sent).isEmpty();
    assertThat(err()).isEqualTo("scontrol: error: \"abc\" is not a valid node count\n");
  }

  @Test
  void deleteFormsAndRefusals() {
    assertThat(run("delete", "partition=p1")).isZero();
    assertThat(sent.get(0).getDeletePartition().getName()).isEqualTo("p1");
    assertThat(run("delete", "partition", "p2")).isZero();
    assertThat(sent.get(1).getDeletePartition().getName()).isEqualTo("p2");
    assertThat(run(refusing(SlurmError.INVALID_PARTITION_NAME), "delete", "partitionname=nosuch")).isEqualTo(1);
    assertThat(run(refusing(SlurmError.INVALID_PARTITION_NAME), "delete", "PartitionName", "nosuch")).isEqualTo(1);
    assertThat(run(refusing(SlurmError.PARTITION_IN_USE), "delete", "partition=extra")).isEqualTo(1);
    assertThat(run(refusing(SlurmError.USER_ID_MISSING), "delete", "partition=extra")).isEqualTo(1);
    assertThat(run("delete", "partition")).isEqualTo(1);
    assertThat(err()).isEqualTo("""
        delete_partition partitionname=nosuch: Invalid partition name specified
        delete_partition PartitionName: Invalid partition name specified
        delete_partition partition=extra: Partition is in use
        delete_partition partition=extra: Invalid user id
        scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'
        """);
  }

  @Test
  void reconfigureIsSilentAndRefusalsNameTheirCause() {
    assertThat(run("reconfigure")).isZero();
    assertThat(run("reconfig")).isZero();
    assertThat(sent).allMatch(Request::hasReconfigure).hasSize(2);
    assertThat(run(refusing(SlurmError.USER_ID_MISSING), "reconfigure")).isEqualTo(1);
    assertThat(run(r -> Response.newBuilder().setErrorCode(SlurmError.UNEXPECTED.code())
        .setErrorMessage("/etc/slurm/slurm.conf line 3: unknown key BogusKey").build(), "reconfigure")).isEqualTo(1);
    assertThat(out.length()).isZero();
    assertThat(err()).isEqualTo("""
        slurm_reconfigure error: Invalid user id
        slurm_reconfigure error: /etc/slurm/slurm.conf line 3: unknown key BogusKey
        """);
  }
}
