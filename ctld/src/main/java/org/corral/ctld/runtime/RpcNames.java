package org.corral.ctld.runtime;

import java.util.EnumMap;
import java.util.Map;
import org.corral.protocol.msg.Request;

/**
 * The Slurm message type each of Corral's requests stands for, as sdiag names and numbers them
 * (slurm_protocol_defs.h; the numbers seen in Slurm 22.05's sdiag).
 */
final class RpcNames {
  record Name(String text, int number) {}

  private static final Map<Request.BodyCase, Name> NAMES = new EnumMap<>(Request.BodyCase.class);

  static {
    put(Request.BodyCase.SUBMIT_JOB, "REQUEST_SUBMIT_BATCH_JOB", 4003);
    put(Request.BodyCase.JOB_INFO, "REQUEST_JOB_INFO", 2003);
    put(Request.BodyCase.NODE_INFO, "REQUEST_NODE_INFO", 2007);
    put(Request.BodyCase.PARTITION_INFO, "REQUEST_PARTITION_INFO", 2009);
    put(Request.BodyCase.CANCEL_JOBS, "REQUEST_KILL_JOB", 5032);
    put(Request.BodyCase.HOLD_JOBS, "REQUEST_UPDATE_JOB", 3001);
    put(Request.BodyCase.UPDATE_JOB, "REQUEST_UPDATE_JOB", 3001);
    put(Request.BodyCase.PING, "REQUEST_PING", 1008);
    put(Request.BodyCase.CONFIG, "REQUEST_BUILD_INFO", 2001);
    put(Request.BodyCase.SHUTDOWN, "REQUEST_SHUTDOWN", 1005);
    put(Request.BodyCase.CREATE_STEP, "REQUEST_JOB_STEP_CREATE", 5001);
    put(Request.BodyCase.STEP_INFO, "REQUEST_JOB_STEP_INFO", 2005);
    put(Request.BodyCase.SIGNAL_STEP, "REQUEST_CANCEL_JOB_STEP", 5005);
    put(Request.BodyCase.COMPLETE_ALLOCATION, "REQUEST_COMPLETE_JOB_ALLOCATION", 5017);
    put(Request.BodyCase.WAIT_ALLOCATION, "REQUEST_JOB_READY", 4019);
    put(Request.BodyCase.REGISTER_NODE, "MESSAGE_NODE_REGISTRATION_STATUS", 1002);
    put(Request.BodyCase.JOB_FINISHED, "REQUEST_COMPLETE_BATCH_SCRIPT", 5018);
    put(Request.BodyCase.STEP_FINISHED, "REQUEST_STEP_COMPLETE", 5016);
    put(Request.BodyCase.UPDATE_NODE, "REQUEST_UPDATE_NODE", 3002);
    put(Request.BodyCase.REQUEUE_JOBS, "REQUEST_JOB_REQUEUE", 5023);
    put(Request.BodyCase.SUSPEND_JOBS, "REQUEST_SUSPEND", 5014);
    put(Request.BodyCase.TOP_JOBS, "REQUEST_TOP_JOB", 5038);
    put(Request.BodyCase.NODE_HOOK_DONE, "MESSAGE_EPILOG_COMPLETE", 6012);
    put(Request.BodyCase.JOB_ENDING, "REQUEST_COMPLETE_BATCH_SCRIPT", 5018);
    put(Request.BodyCase.STEP_STAT, "REQUEST_JOB_STEP_STAT", 5014);
    put(Request.BodyCase.STATS, "REQUEST_STATS_INFO", 2035);
    put(Request.BodyCase.LICENSE_INFO, "REQUEST_LICENSE_INFO", 1021);
    put(Request.BodyCase.RESERVATION, "REQUEST_CREATE_RESERVATION", 3006);
    put(Request.BodyCase.DELETE_RESERVATION, "REQUEST_DELETE_RESERVATION", 3008);
    put(Request.BodyCase.RESERVATION_INFO, "REQUEST_RESERVATION_INFO", 2024);
    put(Request.BodyCase.BATCH_SCRIPT, "REQUEST_BATCH_SCRIPT", 2051);
    put(Request.BodyCase.RECONFIGURE, "REQUEST_RECONFIGURE", 1003);
    put(Request.BodyCase.UPDATE_PARTITION, "REQUEST_UPDATE_PARTITION", 3004);
    put(Request.BodyCase.DELETE_PARTITION, "REQUEST_DELETE_PARTITION", 3005);
    put(Request.BodyCase.CONFIG_FILES, "REQUEST_CONFIG", 2016);
  }

  private static void put(Request.BodyCase c, String text, int number) {
    NAMES.put(c, new Name(text, number));
  }

  private RpcNames() {}

  /** The Slurm name of a request; ones Slurm has no counterpart for keep Corral's own. */
  static Name of(Request.BodyCase c) {
    Name n = NAMES.get(c);
    return n != null ? n : new Name("REQUEST_" + c.name(), 0);
  }
}
