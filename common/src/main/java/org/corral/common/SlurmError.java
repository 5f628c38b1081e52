package org.corral.common;

/** Slurm's error numbers and texts (slurm_strerror), as clients print and match them. */
public enum SlurmError {
  SUCCESS(0, "No error"),
  UNEXPECTED(1, "Unspecified error"),
  INVALID_PARTITION_NAME(2000, "Invalid partition name specified"),
  DEFAULT_PARTITION_NOT_SET(2001, "No partition specified or system default partition"),
  ACCESS_DENIED(2002, "Access/permission denied"),
  JOB_MISSING_REQUIRED_PARTITION_GROUP(2003, "User's group not permitted to use this partition"),
  REQUESTED_NODES_NOT_IN_PARTITION(2004, "Requested nodes not in this partition"),
  TOO_MANY_REQUESTED_CPUS(2005, "More processors requested than permitted"),
  INVALID_NODE_COUNT(2006, "Node count specification invalid"),
  ERROR_ON_DESC_TO_RECORD_COPY(2007, "Unable to create job record, try again"),
  JOB_MISSING_SIZE_SPECIFICATION(2008, "Job size specification needs to be provided"),
  JOB_SCRIPT_MISSING(2009, "Job script not specified"),
  USER_ID_MISSING(2010, "Invalid user id"),
  DUPLICATE_JOB_ID(2011, "Duplicate job id"),
  PATHNAME_TOO_LONG(2012, "Pathname of a file, directory or other parameter too long"),
  NOT_TOP_PRIORITY(2013, "Immediate execution impossible, insufficient priority"),
  REQUESTED_NODE_CONFIG_UNAVAILABLE(2014, "Requested node configuration is not available"),
  REQUESTED_PART_CONFIG_UNAVAILABLE(2015, "Requested partition configuration not available now"),
  NODES_BUSY(2016, "Requested nodes are busy"),
  INVALID_JOB_ID(2017, "Invalid job id specified"),
  INVALID_NODE_NAME(2018, "Invalid node name specified"),
  WRITING_TO_FILE(2019, "I/O error writing script/environment to file"),
  TRANSITION_STATE_NO_UPDATE(2020, "Job can not be altered now, try again later"),
  ALREADY_DONE(2021, "Job/step already completing or completed"),
  INTERCONNECT_FAILURE(2022, "Error configuring interconnect"),
  INTERCONNECT_BUSY(2023, "Requested interconnect resources busy"),
  JOB_PENDING(2028, "Job is pending execution"),
  INVALID_TIME_LIMIT(2051, "Requested time limit is invalid (missing or exceeds some limit)"),
  INVALID_DEPENDENCY(2060, "Job dependency problem"),
  PARTITION_DOWN(2064, "Partition in DOWN state"),
  JOB_NOT_PENDING(2029, "Job is no longer pending execution"),
  AUTH_CRED_INVALID(6003, "Invalid authentication credential"),
  AUTH_UNPACK(6012, "Cannot unpack credential"),
  PROTOCOL_VERSION_ERROR(1005, "Protocol version has changed, re-link your code"),
  SOCKET_TIMEOUT(5004, "Socket timed out on send/recv operation"),
  MESSAGE_TOO_LARGE(1007, "Message too large"),
  INVALID_MESSAGE(1006, "Unexpected message received"),
  CONNECTION_ERROR(1001, "Communication connection failure"),
  CONTROLLER_DOWN(1003, "Unable to contact slurm controller (connect failure)");

  private final int code;
  private final String message;

  SlurmError(int code, String message) {
    this.code = code;
    this.message = message;
  }

  public int code() { return code; }

  public String message() { return message; }

  /** The text for an error number, as slurm_strerror gives it. */
  public static String messageFor(int code) {
    for (SlurmError e : values()) {
      if (e.code == code) {
        return e.message;
      }
    }
    return "Unknown error " + code;
  }
}
