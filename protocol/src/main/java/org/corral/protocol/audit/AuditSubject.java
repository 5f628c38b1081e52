package org.corral.protocol.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * Which requests change state (and so go to the audit log) and what each changes, in a few
 * words an administrator reads: {@code cancel JobId=12,13}, {@code update NodeName=n[1-2]
 * State=DRAIN}, {@code add user alice}. Queries, daemons' own traffic and srun's steps are not
 * audited. Scripts and environments are never written.
 */
public final class AuditSubject {
  private AuditSubject() {}

  /** The action and what it changes, or empty for a request that changes nothing. */
  public static Optional<String[]> of(Request req, Response response) {
    return Optional.ofNullable(switch (req.getBodyCase()) {
      case SUBMIT_JOB -> req.getSubmitJob().getTestOnly() ? null : new String[] {"submit",
          (response.getErrorCode() == 0 ? "JobId=" + response.getSubmitJob().getJobId() + " " : "")
              + "JobName=" + req.getSubmitJob().getSpec().getName()
              + partition(req.getSubmitJob().getSpec().getPartition())};
      case CANCEL_JOBS -> new String[] {req.getCancelJobs().getSignal() == 0 ? "cancel" : "signal",
          cancelTarget(req) + (req.getCancelJobs().getSignal() == 0 ? "" : " Signal=" + req.getCancelJobs().getSignal())};
      case SIGNAL_STEP -> new String[] {req.getSignalStep().getSignal() == 0 ? "cancel" : "signal",
          "StepId=" + req.getSignalStep().getJobId() + "." + req.getSignalStep().getStepId()};
      case HOLD_JOBS -> new String[] {req.getHoldJobs().getRelease() ? "release"
          : req.getHoldJobs().getUserHold() ? "uhold" : "hold", "JobId=" + ids(req.getHoldJobs().getJobIdsList())};
      case UPDATE_JOB -> new String[] {"update", "JobId=" + ids(req.getUpdateJob().getJobIdsList()) + " "
          + pairs(req.getUpdateJob().getChangesMap())};
      case REQUEUE_JOBS -> new String[] {req.getRequeueJobs().getHold() ? "requeuehold" : "requeue",
          "JobId=" + ids(req.getRequeueJobs().getJobIdsList())};
      case SUSPEND_JOBS -> new String[] {req.getSuspendJobs().getResume() ? "resume" : "suspend",
          "JobId=" + ids(req.getSuspendJobs().getJobIdsList())};
      case TOP_JOBS -> new String[] {"top", "JobId=" + ids(req.getTopJobs().getJobIdsList())};
      case UPDATE_NODE -> new String[] {"update", "NodeName=" + req.getUpdateNode().getNodeNames()
          + (req.getUpdateNode().getState().isEmpty() ? "" : " State=" + req.getUpdateNode().getState())
          + (req.getUpdateNode().getHasReason() ? " Reason=" + req.getUpdateNode().getReason() : "")};
      case DELETE_NODE -> new String[] {"delete", "NodeName=" + req.getDeleteNode().getNodeNames()};
      case RESERVATION -> new String[] {req.getReservation().getUpdate() ? "update" : "create",
          "Reservation " + pairs(req.getReservation().getFieldsMap())};
      case DELETE_RESERVATION -> new String[] {"delete", "ReservationName=" + req.getDeleteReservation().getName()};
      case SHUTDOWN -> new String[] {"shutdown", "slurmctld"};
      case STATS -> req.getStats().getReset() ? new String[] {"reset", "sdiag statistics"} : null;
      // sacctmgr first asks whether its changes would pass: a refusal then is audited too
      case ACCT_UPDATE -> req.getAcctUpdate().getCheckOnly() && response.getErrorCode() == 0 ? null
          : new String[] {"sacctmgr", changes(req.getAcctUpdate().getChangesList())};
      case ARCHIVE_DUMP -> new String[] {"archive dump", "accounting records"};
      case ARCHIVE_LOAD -> new String[] {"archive load", "accounting records"};
      default -> null;
    });
  }

  private static String partition(String p) {
    return p.isEmpty() ? "" : " Partition=" + p;
  }

  private static String cancelTarget(Request req) {
    var c = req.getCancelJobs();
    List<String> parts = new ArrayList<>();
    if (c.getJobIdsCount() > 0) {
      parts.add("JobId=" + ids(c.getJobIdsList()));
    }
    c.getArrayTasksList().forEach(t -> parts.add("JobId=" + t.getArrayJobId() + "_" + t.getTaskId()));
    if (!c.getUserName().isEmpty()) {
      parts.add("User=" + c.getUserName());
    }
    if (!c.getPartition().isEmpty()) {
      parts.add("Partition=" + c.getPartition());
    }
    if (!c.getJobName().isEmpty()) {
      parts.add("JobName=" + c.getJobName());
    }
    return parts.isEmpty() ? "(all selected)" : String.join(" ", parts);
  }

  private static String ids(List<Integer> ids) {
    return String.join(",", ids.stream().map(Integer::toUnsignedString).toList());
  }

  private static String pairs(Map<String, String> m) {
    List<String> out = new ArrayList<>();
    new TreeMap<>(m).forEach((k, v) -> out.add(k + "=" + v));
    return String.join(" ", out);
  }

  /** sacctmgr's changes as Slurm's transaction actions name them, one per change. */
  private static String changes(List<AcctChange> changes) {
    List<String> out = new ArrayList<>();
    for (AcctChange c : changes) {
      out.add(switch (c.getChangeCase()) {
        case ADD_CLUSTER -> "add cluster " + c.getAddCluster().getName();
        case PUT_ACCOUNT -> "put account " + c.getPutAccount().getName();
        case PUT_USER -> "put user " + c.getPutUser().getName();
        case PUT_ASSOC -> "put association " + assoc(c.getPutAssoc());
        case PUT_QOS -> "put qos " + c.getPutQos().getName();
        case ADD_COORD -> "add coordinator " + c.getAddCoord().getUser() + " account " + c.getAddCoord().getAccount();
        case DELETE_CLUSTER -> "delete cluster " + c.getDeleteCluster();
        case DELETE_ACCOUNT -> "delete account " + c.getDeleteAccount();
        case DELETE_USER -> "delete user " + c.getDeleteUser();
        case DELETE_ASSOC -> "delete association " + assoc(c.getDeleteAssoc());
        case DELETE_QOS -> "delete qos " + c.getDeleteQos();
        case DELETE_COORD -> "delete coordinator " + c.getDeleteCoord().getUser() + " account "
            + c.getDeleteCoord().getAccount();
        case PUT_WCKEY -> "put wckey " + c.getPutWckey().getName();
        case DELETE_WCKEY -> "delete wckey " + c.getDeleteWckey().getName();
        case CHANGE_NOT_SET -> "nothing";
      });
    }
    return String.join("; ", out);
  }

  private static String assoc(AcctAssoc a) {
    return "cluster=" + a.getCluster() + " account=" + a.getAccount()
        + (a.getUser().isEmpty() ? "" : " user=" + a.getUser())
        + (a.getPartition().isEmpty() ? "" : " partition=" + a.getPartition());
  }
}
