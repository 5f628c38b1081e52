package org.corral.ctld.state;

import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import org.corral.protocol.msg.CancelJobCmd;
import org.corral.protocol.msg.HoldJobCmd;
import org.corral.protocol.msg.EpilogNodesCmd;
import org.corral.protocol.msg.JobEndedCmd;
import org.corral.protocol.msg.JobEndingCmd;
import org.corral.protocol.msg.JournalEntry;
import org.corral.protocol.msg.LaunchFailedCmd;
import org.corral.protocol.msg.StepCancelledCmd;
import org.corral.protocol.msg.StepCreatedCmd;
import org.corral.protocol.msg.StepNodeDoneCmd;
import org.corral.protocol.msg.NodeDownCmd;
import org.corral.protocol.msg.NodeRegisteredCmd;
import org.corral.protocol.msg.CancelArrayTaskCmd;
import org.corral.protocol.msg.DeadlineJobCmd;
import org.corral.protocol.msg.AcctShippedCmd;
import org.corral.protocol.msg.JobIdUsedCmd;
import org.corral.protocol.msg.UpdateJobCmd;
import org.corral.protocol.msg.StartArrayTaskCmd;
import org.corral.protocol.msg.PurgeJobCmd;
import org.corral.protocol.msg.RequeueJobCmd;
import org.corral.protocol.msg.UpdateNodeCmd;
import org.corral.protocol.msg.WarnSignalSentCmd;
import org.corral.protocol.msg.StartJobCmd;
import org.corral.protocol.msg.SubmitJobCmd;
import org.corral.protocol.msg.TimeoutJobCmd;

/** Durable commands to and from their journal form (protobuf JournalEntry). */
public final class CommandCodec {
  private CommandCodec() {}

  public static byte[] encode(Command c) {
    JournalEntry.Builder e = JournalEntry.newBuilder();
    switch (c) {
      case Command.SubmitJob x -> e.setSubmitJob(SubmitJobCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()).setUserId(x.userId()).setUserName(x.userName())
          .setGroupId(x.groupId()).setGroupName(x.groupName()).setSpec(x.spec()));
      case Command.StartJob x -> e.setStartJob(StartJobCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()).addAllAllocation(x.allocation()).setReservation(x.reservation()));
      case Command.JobEnded x -> {
        JobEndedCmd.Builder b = JobEndedCmd.newBuilder().setJobId(x.jobId())
            .setTime(x.time()).setExitStatus(x.exitStatus()).setNode(x.node())
            .setOutOfMemory(x.outOfMemory());
        if (x.usage() != null) {
          b.setUsage(x.usage());
        }
        e.setJobEnded(b);
      }
      case Command.CancelJob x -> e.setCancelJob(CancelJobCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()).setByUid(x.byUid()));
      case Command.HoldJob x -> e.setHoldJob(HoldJobCmd.newBuilder().setJobId(x.jobId())
          .setRelease(x.release()).setUserHold(x.userHold()));
      case Command.TimeoutJob x -> e.setTimeoutJob(TimeoutJobCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()));
      case Command.LaunchFailed x -> e.setLaunchFailed(LaunchFailedCmd.newBuilder()
          .setJobId(x.jobId()).setTime(x.time()).setMessage(x.message()));
      case Command.PurgeJob x -> e.setPurgeJob(PurgeJobCmd.newBuilder().setJobId(x.jobId()));
      case Command.JobIdUsed x -> e.setJobIdUsed(JobIdUsedCmd.newBuilder().setJobId(x.jobId()));
      case Command.AcctShipped x -> e.setAcctShipped(AcctShippedCmd.newBuilder().setThrough(x.through()));
      case Command.DeadlineJob x -> e.setDeadlineJob(DeadlineJobCmd.newBuilder().setJobId(x.jobId()).setTime(x.time()));
      case Command.UpdateJob x -> e.setUpdateJob(UpdateJobCmd.newBuilder().setJobId(x.jobId()).setTime(x.time())
          .putAllChanges(x.changes()));
      case Command.CancelArrayTask x -> e.setCancelArrayTask(CancelArrayTaskCmd.newBuilder()
          .setArrayJobId(x.arrayJobId()).setTaskId(x.taskId()).setTime(x.time()).setByUid(x.byUid()));
      case Command.StartArrayTask x -> e.setStartArrayTask(StartArrayTaskCmd.newBuilder()
          .setArrayJobId(x.arrayJobId()).setTaskId(x.taskId()).setJobId(x.jobId()).setTime(x.time())
          .addAllAllocation(x.allocation()));
      case Command.NodeRegistered x -> e.setNodeRegistered(NodeRegisteredCmd.newBuilder()
          .setNode(x.node()).setTime(x.time()).setCpus(x.cpus()).setRealMemoryMb(x.realMemoryMb())
          .setBootTime(x.bootTime()).setSlurmdStartTime(x.slurmdStartTime())
          .setVersion(x.version()).setOs(x.os()).setArch(x.arch()));
      case Command.NodeGres x -> e.setNodeGres(org.corral.protocol.msg.NodeGresCmd.newBuilder().setNode(x.node())
          .setTime(x.time()).addAllSlots(x.slots()));
      case Command.NodeDown x -> e.setNodeDown(NodeDownCmd.newBuilder().setNode(x.node())
          .setTime(x.time()).setReason(x.reason()));
      case Command.UpdateNode x -> e.setUpdateNode(UpdateNodeCmd.newBuilder().setNode(x.node())
          .setTime(x.time()).setAction(x.action().code()).setReason(x.reason())
          .setByUid(x.byUid()).setSetReason(x.setReason()).mergeFrom(settings(x.settings())));
      case Command.RequeueJob x -> e.setRequeueJob(RequeueJobCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()).setHold(x.hold()).setUserHold(x.userHold())
          .setHeldReason(x.heldReason()).setSpecialExit(x.specialExit()));
      case Command.SuspendJob x -> e.setSuspendJob(org.corral.protocol.msg.SuspendJobCmd.newBuilder()
          .setJobId(x.jobId()).setTime(x.time()).setResume(x.resume()).setByPreemption(x.byPreemption())
          .setByGang(x.byGang()));
      case Command.PreemptJob x -> e.setPreemptJob(org.corral.protocol.msg.PreemptJobCmd.newBuilder()
          .setJobId(x.jobId()).setTime(x.time()).setAction(x.action()).setGraceEnd(x.graceEnd()));
      case Command.WarnSignalSent x -> e.setWarnSignalSent(WarnSignalSentCmd.newBuilder()
          .setJobId(x.jobId()));
      case Command.EpilogNodes x -> e.setEpilogNodes(EpilogNodesCmd.newBuilder().setJobId(x.jobId())
          .addAllNodes(x.nodes()).setTime(x.time()));
      case Command.JobEnding x -> e.setJobEnding(JobEndingCmd.newBuilder().setJobId(x.jobId())
          .setTime(x.time()).setExitStatus(x.exitStatus()).setNode(x.node()));
      case Command.StepCreated x -> e.setStepCreated(StepCreatedCmd.newBuilder().setStep(x.step())
          .setTime(x.time()));
      case Command.StepNodeDone x -> {
        StepNodeDoneCmd.Builder b = StepNodeDoneCmd.newBuilder().setJobId(x.jobId())
            .setStepId(x.stepId()).setNode(x.node()).setExitStatus(x.exitStatus()).setTime(x.time());
        if (x.usage() != null) {
          b.setUsage(x.usage());
        }
        e.setStepNodeDone(b);
      }
      case Command.StepCancelled x -> e.setStepCancelled(StepCancelledCmd.newBuilder()
          .setJobId(x.jobId()).setStepId(x.stepId()).setTime(x.time()));
      case Command.CreateReservation x -> e.setCreateReservation(org.corral.protocol.msg.CreateReservationCmd
          .newBuilder().setReservation(x.reservation()).setTime(x.time()));
      case Command.UpdateReservation x -> e.setUpdateReservation(org.corral.protocol.msg.UpdateReservationCmd
          .newBuilder().setReservation(x.reservation()).setTime(x.time()));
      case Command.DeleteReservation x -> e.setDeleteReservation(org.corral.protocol.msg.DeleteReservationCmd
          .newBuilder().setName(x.name()).setTime(x.time()));
      case Command.SetPartitions x -> e.setSetPartitions(org.corral.protocol.msg.SetPartitionsCmd.newBuilder()
          .addAllPartitions(x.partitions()).setTime(x.time()));
      case Command.NodeHeard x -> throw transientCommand(x);
      case Command.SetPendingStatus x -> throw transientCommand(x);
      case Command.SetPriorities x -> throw transientCommand(x);
      case Command.LoadConfig x -> throw transientCommand(x);
    }
    return e.build().toByteArray();
  }

  public static Command decode(byte[] data) throws InvalidProtocolBufferException {
    JournalEntry e = JournalEntry.parseFrom(data);
    return switch (e.getCommandCase()) {
      case SUBMIT_JOB -> {
        SubmitJobCmd x = e.getSubmitJob();
        yield new Command.SubmitJob(x.getJobId(), x.getTime(), x.getUserId(), x.getUserName(),
            x.getGroupId(), x.getGroupName(), x.getSpec());
      }
      case START_JOB -> new Command.StartJob(e.getStartJob().getJobId(), e.getStartJob().getTime(),
          e.getStartJob().getAllocationList(), -1, e.getStartJob().getReservation());
      case JOB_ENDED -> {
        JobEndedCmd x = e.getJobEnded();
        yield new Command.JobEnded(x.getJobId(), x.getTime(), x.getExitStatus(), x.getNode(), x.getOutOfMemory(),
            x.hasUsage() ? x.getUsage() : null);
      }
      case CANCEL_JOB -> new Command.CancelJob(e.getCancelJob().getJobId(),
          e.getCancelJob().getTime(), e.getCancelJob().getByUid());
      case HOLD_JOB -> new Command.HoldJob(e.getHoldJob().getJobId(), e.getHoldJob().getRelease(),
          e.getHoldJob().getUserHold());
      case TIMEOUT_JOB -> new Command.TimeoutJob(e.getTimeoutJob().getJobId(),
          e.getTimeoutJob().getTime());
      case LAUNCH_FAILED -> new Command.LaunchFailed(e.getLaunchFailed().getJobId(),
          e.getLaunchFailed().getTime(), e.getLaunchFailed().getMessage());
      case PURGE_JOB -> new Command.PurgeJob(e.getPurgeJob().getJobId());
      case JOB_ID_USED -> new Command.JobIdUsed(e.getJobIdUsed().getJobId());
      case ACCT_SHIPPED -> new Command.AcctShipped(e.getAcctShipped().getThrough());
      case DEADLINE_JOB -> new Command.DeadlineJob(e.getDeadlineJob().getJobId(), e.getDeadlineJob().getTime());
      case UPDATE_JOB -> new Command.UpdateJob(e.getUpdateJob().getJobId(), e.getUpdateJob().getTime(),
          java.util.Map.copyOf(e.getUpdateJob().getChangesMap()));
      case CANCEL_ARRAY_TASK -> new Command.CancelArrayTask(e.getCancelArrayTask().getArrayJobId(),
          e.getCancelArrayTask().getTaskId(), e.getCancelArrayTask().getTime(), e.getCancelArrayTask().getByUid());
      case START_ARRAY_TASK -> new Command.StartArrayTask(e.getStartArrayTask().getArrayJobId(),
          e.getStartArrayTask().getTaskId(), e.getStartArrayTask().getJobId(), e.getStartArrayTask().getTime(),
          List.copyOf(e.getStartArrayTask().getAllocationList()));
      case NODE_REGISTERED -> {
        NodeRegisteredCmd x = e.getNodeRegistered();
        yield new Command.NodeRegistered(x.getNode(), x.getTime(), x.getCpus(),
            x.getRealMemoryMb(), x.getBootTime(), x.getSlurmdStartTime(), x.getVersion(), x.getOs(),
            x.getArch());
      }
      case NODE_GRES -> new Command.NodeGres(e.getNodeGres().getNode(), e.getNodeGres().getTime(),
          e.getNodeGres().getSlotsList());
      case NODE_DOWN -> new Command.NodeDown(e.getNodeDown().getNode(), e.getNodeDown().getTime(),
          e.getNodeDown().getReason());
      case UPDATE_NODE -> {
        UpdateNodeCmd x = e.getUpdateNode();
        yield new Command.UpdateNode(x.getNode(), x.getTime(), NodeAction.ofCode(x.getAction()),
            x.getReason(), x.getByUid(), x.getSetReason(), new Command.NodeSettings(
                x.getSetFeatures() ? x.getFeaturesList() : null,
                x.getSetActiveFeatures() ? x.getActiveFeaturesList() : null,
                x.hasWeight() ? Integer.toUnsignedLong(x.getWeight()) : -1));
      }
      case REQUEUE_JOB -> new Command.RequeueJob(e.getRequeueJob().getJobId(),
          e.getRequeueJob().getTime(), e.getRequeueJob().getHold(),
          e.getRequeueJob().getUserHold(), e.getRequeueJob().getHeldReason(),
          e.getRequeueJob().getSpecialExit());
      case SUSPEND_JOB -> new Command.SuspendJob(e.getSuspendJob().getJobId(), e.getSuspendJob().getTime(),
          e.getSuspendJob().getResume(), e.getSuspendJob().getByPreemption(),
          e.getSuspendJob().getByGang());
      case PREEMPT_JOB -> new Command.PreemptJob(e.getPreemptJob().getJobId(), e.getPreemptJob().getTime(),
          e.getPreemptJob().getAction(), e.getPreemptJob().getGraceEnd());
      case WARN_SIGNAL_SENT -> new Command.WarnSignalSent(e.getWarnSignalSent().getJobId());
      case EPILOG_NODES -> new Command.EpilogNodes(e.getEpilogNodes().getJobId(),
          List.copyOf(e.getEpilogNodes().getNodesList()), e.getEpilogNodes().getTime());
      case JOB_ENDING -> new Command.JobEnding(e.getJobEnding().getJobId(), e.getJobEnding().getTime(),
          e.getJobEnding().getExitStatus(), e.getJobEnding().getNode());
      case STEP_CREATED -> new Command.StepCreated(e.getStepCreated().getStep(),
          e.getStepCreated().getTime());
      case STEP_NODE_DONE -> {
        StepNodeDoneCmd x = e.getStepNodeDone();
        yield new Command.StepNodeDone(x.getJobId(), x.getStepId(), x.getNode(), x.getExitStatus(),
            x.getTime(), x.hasUsage() ? x.getUsage() : null);
      }
      case STEP_CANCELLED -> new Command.StepCancelled(e.getStepCancelled().getJobId(),
          e.getStepCancelled().getStepId(), e.getStepCancelled().getTime());
      case CREATE_RESERVATION -> new Command.CreateReservation(e.getCreateReservation().getReservation(),
          e.getCreateReservation().getTime());
      case UPDATE_RESERVATION -> new Command.UpdateReservation(e.getUpdateReservation().getReservation(),
          e.getUpdateReservation().getTime());
      case DELETE_RESERVATION -> new Command.DeleteReservation(e.getDeleteReservation().getName(),
          e.getDeleteReservation().getTime());
      case SET_PARTITIONS -> new Command.SetPartitions(e.getSetPartitions().getPartitionsList(),
          e.getSetPartitions().getTime());
      case COMMAND_NOT_SET -> throw new InvalidProtocolBufferException(
          "journal entry holds no command (written by a newer Corral?)");
    };
  }

  /** An UpdateNode's Features=/ActiveFeatures=/Weight=, only those it sets. */
  private static UpdateNodeCmd settings(Command.NodeSettings n) {
    UpdateNodeCmd.Builder b = UpdateNodeCmd.newBuilder();
    if (n.features() != null) {
      b.setSetFeatures(true).addAllFeatures(n.features());
    }
    if (n.activeFeatures() != null) {
      b.setSetActiveFeatures(true).addAllActiveFeatures(n.activeFeatures());
    }
    if (n.weight() >= 0) {
      b.setWeight((int) n.weight());
    }
    return b.build();
  }

  private static IllegalArgumentException transientCommand(Command c) {
    return new IllegalArgumentException(c.getClass().getSimpleName() + " is not journaled");
  }
}
