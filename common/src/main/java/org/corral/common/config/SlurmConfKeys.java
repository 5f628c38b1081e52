package org.corral.common.config;

import static org.corral.common.config.ConfKey.Support.HONOURED;
import static org.corral.common.config.ConfKey.Support.NOT_IMPLEMENTED;
import static org.corral.common.config.ConfKey.Support.SHOWN_ONLY;
import static org.corral.common.config.ConfType.LIST;
import static org.corral.common.config.ConfType.MEGABYTES;
import static org.corral.common.config.ConfType.MICROSECONDS;
import static org.corral.common.config.ConfType.MINUTES;
import static org.corral.common.config.ConfType.NODES_PER_MINUTE;
import static org.corral.common.config.ConfType.NUMBER;
import static org.corral.common.config.ConfType.ONE_ZERO;
import static org.corral.common.config.ConfType.PERCENT;
import static org.corral.common.config.ConfType.PORT;
import static org.corral.common.config.ConfType.SECONDS;
import static org.corral.common.config.ConfType.SECONDS_OR_INFINITE;
import static org.corral.common.config.ConfType.TEXT;
import static org.corral.common.config.ConfType.TIME;
import static org.corral.common.config.ConfType.YES_NO;
import static org.corral.common.config.ConfType.flags;
import static org.corral.common.config.ConfType.plugin;
import static org.corral.common.config.ConfType.upper;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.corral.common.config.ConfKey.Support;

/**
 * Every top-level slurm.conf(5) key of Slurm 22.05 (and the removed ones sites still carry), one
 * row each: name, type, default, how {@code scontrol show config} prints it and what Corral does
 * with it, as Slurm's own {@code slurm_conf_options[]} and Kafka's {@code ConfigDef} keep theirs.
 * Parsing, validation, scontrol show config, the start-up warning about keys without effect
 * and the list in docs/compatibility.md all come from this table. {@link #all} is in the order
 * Slurm 22.05 prints them. Plain constructors, no reflection: every command loads this.
 */
public final class SlurmConfKeys {
  private static int next;

  // The keys Corral's code reads, by name. The rest are rows of the table only.
  public static final ConfKey<String> ACCOUNTING_STORAGE_HOST = honoured("AccountingStorageHost", TEXT, null);
  public static final ConfKey<Long> ACCOUNTING_STORAGE_PORT = honoured("AccountingStoragePort", PORT, null);
  public static final ConfKey<Set<String>> ACCOUNTING_STORAGE_ENFORCE = honoured("AccountingStorageEnforce",
      flags(List.of("none", "0"),
          "associations", "limits", "qos", "safe", "wckeys", "nojobs", "nosteps"), null).withUnset("none");
  public static final ConfKey<String> ACCOUNTING_STORAGE_TYPE = honoured("AccountingStorageType",
      plugin(false, "accounting_storage/none", "accounting_storage/slurmdbd"), "accounting_storage/none");
  public static final ConfKey<String> ACCOUNTING_STORAGE_USER = ignored("AccountingStorageUser", TEXT, null,
      "slurmdbd authenticates daemons by the cluster key");
  public static final ConfKey<String> ACCOUNTING_STORAGE_PASS = ignored("AccountingStoragePass", TEXT, null,
      "slurmdbd authenticates daemons by the cluster key");
  public static final ConfKey<String> ACCOUNTING_STORAGE_BACKUP_HOST = ignored("AccountingStorageBackupHost", TEXT,
      null, "one slurmdbd");
  public static final ConfKey<String> ACCOUNTING_STORAGE_PARAMETERS = ignored("AccountingStorageParameters", TEXT,
      null, "no TLS to slurmdbd");
  public static final ConfKey<Long> ACCT_GATHER_NODE_FREQ = ignored("AcctGatherNodeFreq", SECONDS, "0",
      "no node energy/profile sampling");
  /** auth/munge: users of other hosts by MUNGE; any: local users by SO_PEERCRED, daemons by slurm.key. */
  public static final ConfKey<String> AUTH_TYPE = honoured("AuthType", plugin(false, "auth/munge", "auth/slurm",
      "auth/none", "auth/jwt"), "auth/munge");
  public static final ConfKey<String> AUTH_INFO = honoured("AuthInfo", TEXT, null);
  public static final ConfKey<String> AUTH_ALT_PARAMETERS = honoured("AuthAltParameters", TEXT, null);
  public static final ConfKey<String> CLUSTER_NAME = honoured("ClusterName", TEXT, null);
  public static final ConfKey<Boolean> DISABLE_ROOT_JOBS = honoured("DisableRootJobs", YES_NO, "no");
  public static final ConfKey<Long> DEF_MEM_PER_CPU = honoured("DefMemPerCPU", MEGABYTES, null);
  public static final ConfKey<Long> DEF_MEM_PER_NODE = hidden(honoured("DefMemPerNode", MEGABYTES, null));
  public static final ConfKey<String> ENFORCE_PART_LIMITS = honoured("EnforcePartLimits",
      upper("NO", "ALL", "ANY", "YES", "0", "1"), "NO");
  public static final ConfKey<String> EPILOG = honoured("Epilog", TEXT, null);
  public static final ConfKey<Long> FIRST_JOB_ID = honoured("FirstJobId", NUMBER, "1");
  public static final ConfKey<List<String>> GRES_TYPES = honoured("GresTypes", LIST, "");
  public static final ConfKey<Long> HEALTH_CHECK_INTERVAL = honoured("HealthCheckInterval", SECONDS, "0");
  public static final ConfKey<Set<String>> HEALTH_CHECK_NODE_STATE = honoured("HealthCheckNodeState",
      flags(List.of(),
          "CYCLE", "ANY", "ALLOC", "MIXED", "NONDRAINED_IDLE", "IDLE"), "ANY");
  public static final ConfKey<String> HEALTH_CHECK_PROGRAM = honoured("HealthCheckProgram", TEXT, null);
  public static final ConfKey<String> JOB_ACCT_GATHER_FREQUENCY = honoured("JobAcctGatherFrequency", TEXT, "30");
  public static final ConfKey<Boolean> JOB_REQUEUE = honoured("JobRequeue", ONE_ZERO, "1");
  public static final ConfKey<Long> KILL_WAIT = honoured("KillWait", SECONDS, "30");
  public static final ConfKey<String> LICENSES = honoured("Licenses", TEXT, null);
  public static final ConfKey<Long> MAX_ARRAY_SIZE = honoured("MaxArraySize", NUMBER, "1001");
  public static final ConfKey<Long> MAX_JOB_ID = honoured("MaxJobId", NUMBER, "67043328");
  public static final ConfKey<Long> MAX_MEM_PER_CPU = honoured("MaxMemPerCPU", MEGABYTES, null);
  public static final ConfKey<Long> MAX_MEM_PER_NODE = hidden(ignored("MaxMemPerNode", MEGABYTES, null,
      "not enforced cluster-wide"));
  public static final ConfKey<Long> MESSAGE_TIMEOUT = ignored("MessageTimeout", SECONDS, "10",
      "Corral's own RPC timeouts");
  /** Slurm 25.11: metrics/openmetrics serves /metrics on SlurmctldPort (not printed by 22.05). */
  public static final ConfKey<String> METRICS_TYPE = hidden(honoured("MetricsType",
      plugin(false, "metrics/openmetrics"), null));
  public static final ConfKey<String> METRICS_PARAMETERS = hidden(honoured("MetricsParameters", TEXT, null));
  public static final ConfKey<List<String>> METRICS_AUTH_USERS = hidden(honoured("MetricsAuthUsers", LIST, ""));
  public static final ConfKey<String> LOG_TIME_FORMAT = honoured("LogTimeFormat", TEXT, "iso8601_ms");
  public static final ConfKey<String> SLURMCTLD_SYSLOG_DEBUG = honoured("SlurmctldSyslogDebug", TEXT, null);
  public static final ConfKey<String> SLURMD_SYSLOG_DEBUG = honoured("SlurmdSyslogDebug", TEXT, null);
  /** srun's --mpi when neither the option nor SLURM_MPI_TYPE gives one (srun refuses what it cannot serve). */
  public static final ConfKey<String> MPI_DEFAULT = honoured("MpiDefault", plugin(false, "none", "pmi2", "pmix",
      "pmix_v3", "pmix_v4", "pmix_v5", "cray_shasta", "openmpi", "mpi/none", "mpi/pmi2", "mpi/pmix", "mpi/pmix_v3",
      "mpi/pmix_v4", "mpi/pmix_v5", "mpi/cray_shasta", "mpi/openmpi"), "none");
  public static final ConfKey<Long> MIN_JOB_AGE = honoured("MinJobAge", SECONDS, "300");
  public static final ConfKey<String> PLUGIN_DIR = honoured("PluginDir", TEXT, "/usr/lib/x86_64-linux-gnu/slurm-wlm");
  public static final ConfKey<String> PREEMPT_MODE = honoured("PreemptMode", TEXT, "OFF");
  public static final ConfKey<String> PREEMPT_TYPE = honoured("PreemptType",
      plugin(false, "preempt/none", "preempt/partition_prio", "preempt/qos"), "preempt/none");
  public static final ConfKey<Long> PREEMPT_EXEMPT_TIME = honoured("PreemptExemptTime", TIME, "0");
  public static final ConfKey<Set<String>> PRIVATE_DATA = honoured("PrivateData",
      flags(List.of("none"), PrivateData.WORDS), "none");
  public static final ConfKey<String> PROLOG = honoured("Prolog", TEXT, null);
  public static final ConfKey<Long> PROLOG_EPILOG_TIMEOUT = honoured("PrologEpilogTimeout", NUMBER, "65534");
  public static final ConfKey<Set<String>> PROLOG_FLAGS = honoured("PrologFlags",
      flags(List.of("none"), "Alloc", "Contain", "DeferBatch", "NoHold",
          "ForceRequeueOnFail", "RunInJob", "Serial", "X11"), null);
  public static final ConfKey<Long> RETURN_TO_SERVICE = honoured("ReturnToService", NUMBER, "0");
  /** sbcast's DestDir= (where relative destinations go) and Compression= (lz4 or none). */
  public static final ConfKey<String> BCAST_PARAMETERS = honoured("BcastParameters", TEXT, null);
  public static final ConfKey<String> SCHEDULER_PARAMETERS = honoured("SchedulerParameters", TEXT, null);
  public static final ConfKey<Long> SCHEDULER_TIME_SLICE = honoured("SchedulerTimeSlice", SECONDS, "30");
  public static final ConfKey<String> SELECT_TYPE = ignored("SelectType", plugin(false, "select/cons_tres",
      "select/cons_res", "select/linear", "select/cray_aries"), "select/linear", "Corral always selects as cons_tres").as("select/cons_tres");
  public static final ConfKey<String> SLURM_USER = honoured("SlurmUser", TEXT, "root");
  public static final ConfKey<String> SLURMCTLD_HOST = honoured("SlurmctldHost", TEXT, null);
  public static final ConfKey<String> SLURMCTLD_LOG_FILE = honoured("SlurmctldLogFile", TEXT, null);
  public static final ConfKey<Long> SLURMCTLD_PORT = honoured("SlurmctldPort", PORT, "6817");
  public static final ConfKey<String> SLURMCTLD_PARAMETERS = honoured("SlurmctldParameters", TEXT, null);
  /** KeepPartInfo, KeepPartState: what scontrol reconfigure keeps of partitions changed by scontrol. */
  public static final ConfKey<String> RECONFIG_FLAGS = honoured("ReconfigFlags", TEXT, null);
  public static final ConfKey<String> SLURMCTLD_PID_FILE = honoured("SlurmctldPidFile", TEXT, "/var/run/slurmctld.pid");
  public static final ConfKey<String> SLURMD_LOG_FILE = honoured("SlurmdLogFile", TEXT, null);
  public static final ConfKey<String> SLURMD_PID_FILE = honoured("SlurmdPidFile", TEXT, "/run/slurmd.pid");
  public static final ConfKey<Long> SLURMD_PORT = honoured("SlurmdPort", PORT, "6818");
  public static final ConfKey<String> SLURMD_SPOOL_DIR = honoured("SlurmdSpoolDir", TEXT, "/var/spool/slurmd");
  public static final ConfKey<Long> SLURMD_TIMEOUT = honoured("SlurmdTimeout", SECONDS, "300");
  public static final ConfKey<String> STATE_SAVE_LOCATION = honoured("StateSaveLocation", TEXT,
      "/var/spool/slurmctld");
  public static final ConfKey<String> TASK_EPILOG = honoured("TaskEpilog", TEXT, null);
  public static final ConfKey<String> TASK_PROLOG = honoured("TaskProlog", TEXT, null);
  public static final ConfKey<Long> TCP_TIMEOUT = ignored("TCPTimeout", SECONDS, "2", "Corral's own connect timeouts");
  public static final ConfKey<Boolean> TRACK_WCKEY = honoured("TrackWCKey", YES_NO, "no");
  public static final ConfKey<Long> UNKILLABLE_STEP_TIMEOUT = honoured("UnkillableStepTimeout", SECONDS, "60");
  public static final ConfKey<String> CONTROL_MACHINE = hidden(honoured("ControlMachine", TEXT, null));
  public static final ConfKey<String> CONTROL_ADDR = hidden(honoured("ControlAddr", TEXT, null));

  /**
   * The whole table, built on first use: the commands use only the keys named above (and build
   * none of the rest), the daemons check every key.
   */
  private static final class Table {
    /** Every key, in the order scontrol show config prints them; the unprinted ones last. */
    static final List<ConfKey<?>> ALL = List.of(
        ACCOUNTING_STORAGE_BACKUP_HOST,
        ACCOUNTING_STORAGE_ENFORCE,
        ACCOUNTING_STORAGE_HOST,
        ignored("AccountingStorageExternalHost", TEXT, null, "no federation"),
        ACCOUNTING_STORAGE_PARAMETERS,
        ACCOUNTING_STORAGE_PORT,
        ignored("AccountingStorageTRES", TEXT, null, "GRES are always accounted; other TRES as by default"),
        ACCOUNTING_STORAGE_TYPE,
        ACCOUNTING_STORAGE_USER,
        ignored("AccountingStoreFlags", TEXT, null, "job scripts and environments are not stored in accounting"),
        ignored("AcctGatherEnergyType", plugin(false, "acct_gather_energy/none", "acct_gather_energy/ipmi",
            "acct_gather_energy/rapl", "acct_gather_energy/xcc", "acct_gather_energy/gpu",
            "acct_gather_energy/pm_counters"), "acct_gather_energy/none", "no energy accounting"),
        ignored("AcctGatherFilesystemType", plugin(false, "acct_gather_filesystem/none",
            "acct_gather_filesystem/lustre"), "acct_gather_filesystem/none", "no filesystem accounting"),
        ignored("AcctGatherInterconnectType", plugin(false, "acct_gather_interconnect/none",
            "acct_gather_interconnect/ofed", "acct_gather_interconnect/sysfs"), "acct_gather_interconnect/none",
            "no interconnect accounting"),
        ACCT_GATHER_NODE_FREQ,
        ignored("AcctGatherProfileType", plugin(false, "acct_gather_profile/none", "acct_gather_profile/hdf5",
            "acct_gather_profile/influxdb"), "acct_gather_profile/none", "no profiling"),
        ignored("AllowSpecResourcesUsage", YES_NO, "no", "no core specialization"),
        ignored("AuthAltTypes", TEXT, null, "slurmrestd takes JWTs (AuthAltParameters=jwt_key=) without it"),
        AUTH_ALT_PARAMETERS,
        AUTH_INFO,
        AUTH_TYPE,
        ignored("BatchStartTimeout", SECONDS, "10", "launches are not timed out"),
        ignored("BcastExclude", TEXT, "/lib,/usr/lib,/lib64,/usr/lib64", "sbcast has no --send-libs"),
        BCAST_PARAMETERS,
        shown("BOOT_TIME"),
        ignored("BurstBufferType", TEXT, null, "no burst buffers"),
        ignored("CliFilterPlugins", TEXT, null, "no cli_filter plugins"),
        CLUSTER_NAME,
        ignored("CommunicationParameters", TEXT, null, "Corral's own transport"),
        ignored("CompleteWait", SECONDS, "0", "jobs are scheduled while others complete"),
        ignored("CoreSpecPlugin", plugin(false, "core_spec/none", "core_spec/cray_aries"), "core_spec/none",
            "no core specialization"),
        ignored("CpuFreqDef", TEXT, null, "no CPU frequency control").withUnset("Unknown"),
        ignored("CpuFreqGovernors", TEXT, "OnDemand,Performance,UserSpace", "no CPU frequency control"),
        ignored("CredType", plugin(false, "cred/munge", "cred/none", "cred/slurm"), "cred/munge",
            "launches are signed with slurm.key"),
        ignored("DebugFlags", TEXT, null, "Corral's logs have no debug flags"),
        DEF_MEM_PER_CPU,
        DEF_MEM_PER_NODE,
        ignored("DependencyParameters", TEXT, null, "default dependency behaviour"),
        DISABLE_ROOT_JOBS,
        ignored("EioTimeout", NUMBER, "60", "srun's I/O has its own timeouts"),
        ENFORCE_PART_LIMITS,
        EPILOG,
        ignored("EpilogMsgTime", MICROSECONDS, "2000", "Epilog messages are not spread out"),
        ignored("EpilogSlurmctld", TEXT, null, "not run"),
        ignored("ExtSensorsType", plugin(false, "ext_sensors/none", "ext_sensors/rrd"), "ext_sensors/none",
            "no external sensors"),
        ignored("ExtSensorsFreq", SECONDS, "0", "no external sensors"),
        ignored("FairShareDampeningFactor", NUMBER, "1", "no dampening"),
        ignored("FederationParameters", TEXT, null, "no federation"),
        FIRST_JOB_ID,
        ignored("GetEnvTimeout", SECONDS, "2", "--get-user-env is not supported"),
        GRES_TYPES,
        ignored("GpuFreqDef", TEXT, "high,memory=high", "no GPU frequency control"),
        ignored("GroupUpdateForce", ONE_ZERO, "1", "groups are looked up per job"),
        ignored("GroupUpdateTime", SECONDS, "600", "groups are looked up per job"),
        shown("HASH_VAL"),
        HEALTH_CHECK_INTERVAL,
        HEALTH_CHECK_NODE_STATE,
        HEALTH_CHECK_PROGRAM,
        ignored("InactiveLimit", SECONDS, "0", "allocations whose srun/salloc is gone are revoked at once"),
        ignored("InteractiveStepOptions", TEXT, "--interactive --preserve-env --pty $SHELL",
            "salloc runs the shell locally"),
        JOB_ACCT_GATHER_FREQUENCY,
        ignored("JobAcctGatherType", plugin(false, "jobacct_gather/none", "jobacct_gather/linux",
            "jobacct_gather/cgroup"), "jobacct_gather/none", "usage is always sampled from /proc and the cgroup")
          .as("jobacct_gather/linux"),
        ignored("JobAcctGatherParams", TEXT, null, "usage is always sampled the same way"),
        ignored("JobCompHost", TEXT, "localhost", "no job completion plugin"),
        ignored("JobCompLoc", TEXT, "/var/log/slurm_jobcomp.log", "no job completion plugin"),
        ignored("JobCompPort", NUMBER, "0", "no job completion plugin"),
        ignored("JobCompType", plugin(false, "jobcomp/none", "jobcomp/elasticsearch", "jobcomp/filetxt",
            "jobcomp/kafka", "jobcomp/lua", "jobcomp/mysql", "jobcomp/script"), "jobcomp/none",
            "no job completion plugin"),
        ignored("JobCompUser", TEXT, "root", "no job completion plugin"),
        ignored("JobContainerType", plugin(false, "job_container/none", "job_container/tmpfs",
            "job_container/cncu"), "job_container/none", "no job containers"),
        ignored("JobCredentialPrivateKey", TEXT, null, "launches are signed with slurm.key"),
        ignored("JobCredentialPublicCertificate", TEXT, null, "launches are signed with slurm.key"),
        shown("JobDefaults"),
        ignored("JobFileAppend", ONE_ZERO, "0", "output files are truncated unless --open-mode=append"),
        JOB_REQUEUE,
        honoured("JobSubmitPlugins", TEXT, null),
        ignored("KillOnBadExit", ONE_ZERO, "0", "srun's --kill-on-bad-exit only"),
        KILL_WAIT,
        ignored("LaunchParameters", TEXT, null, "default launch behaviour"),
        honoured("LaunchType", plugin(false, "launch/slurm"), "launch/slurm"),
        LICENSES,
        LOG_TIME_FORMAT,
        ignored("MailDomain", TEXT, null, "no mail is sent"),
        ignored("MailProg", TEXT, "/bin/mail", "no mail is sent"),
        MAX_ARRAY_SIZE,
        ignored("MaxDBDMsgs", NUMBER, "0", "the accounting outbox is in the journal, unbounded"),
        ignored("MaxJobCount", NUMBER, "10000", "sizes the controller's heap; no limit on jobs in the controller"),
        MAX_JOB_ID,
        MAX_MEM_PER_CPU,
        MAX_MEM_PER_NODE,
        ignored("MaxNodeCount", NUMBER, null, "the nodes are those slurm.conf lists"),
        ignored("MaxStepCount", NUMBER, "40000", "no limit on steps"),
        ignored("MaxTasksPerNode", NUMBER, "512", "no limit on tasks per node"),
        ignored("MCSPlugin", plugin(false, "mcs/none", "mcs/account", "mcs/group", "mcs/user"), "mcs/none",
            "no MCS labels"),
        ignored("MCSParameters", TEXT, null, "no MCS labels"),
        MESSAGE_TIMEOUT,
        MIN_JOB_AGE,
        MPI_DEFAULT,
        ignored("MpiParams", TEXT, null, "no MPI port reservation"),
        shown("MULTIPLE_SLURMD"),
        shown("NEXT_JOB_ID"),
        ignored("NodeFeaturesPlugins", TEXT, null, "no node_features plugins"),
        ignored("OverTimeLimit", MINUTES, "0", "jobs end at their time limit"),
        PLUGIN_DIR,
        honoured("PlugStackConfig", TEXT, null),
        ignored("PowerParameters", TEXT, null, "no power management"),
        ignored("PowerPlugin", TEXT, null, "no power management").withUnset(""),
        PREEMPT_MODE,
        PREEMPT_TYPE,
        PREEMPT_EXEMPT_TIME,
        ignored("PrEpParameters", TEXT, null, "Prolog and Epilog are run by Corral itself"),
        ignored("PrEpPlugins", TEXT, "prep/script", "Prolog and Epilog are run by Corral itself"),
        ignored("PriorityParameters", TEXT, null, "no priority plugin parameters"),
        ignored("PrioritySiteFactorParameters", TEXT, null, "no site factor"),
        ignored("PrioritySiteFactorPlugin", TEXT, null, "no site factor"),
        honoured("PriorityDecayHalfLife", TIME, "7-0"),
        honoured("PriorityCalcPeriod", TIME, "5"),
        honoured("PriorityFavorSmall", YES_NO, "no"),
        honoured("PriorityFlags", TEXT, null).withUnset(""),
        honoured("PriorityMaxAge", TIME, "7-0"),
        ignored("PriorityUsageResetPeriod", upper("NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY",
            "YEARLY"), "NONE", "usage only decays"),
        honoured("PriorityType", plugin(false, "priority/basic", "priority/multifactor"), "priority/basic"),
        honoured("PriorityWeightAge", NUMBER, "0"),
        honoured("PriorityWeightAssoc", NUMBER, "0"),
        honoured("PriorityWeightFairshare", NUMBER, "0"),
        honoured("PriorityWeightJobSize", NUMBER, "0"),
        honoured("PriorityWeightPartition", NUMBER, "0"),
        honoured("PriorityWeightQOS", NUMBER, "0"),
        honoured("PriorityWeightTRES", TEXT, null),
        PRIVATE_DATA,
        ignored("ProctrackType", plugin(false, "proctrack/cgroup", "proctrack/linuxproc", "proctrack/pgid",
            "proctrack/cray_aries"), "proctrack/cgroup", "jobs are tracked by their cgroup and launcher"),
        PROLOG,
        PROLOG_EPILOG_TIMEOUT,
        ignored("PrologSlurmctld", TEXT, null, "not run"),
        PROLOG_FLAGS,
        ignored("PropagatePrioProcess", NUMBER, "0", "tasks run at the default priority"),
        ignored("PropagateResourceLimits", TEXT, "ALL", "resource limits are not passed to jobs"),
        ignored("PropagateResourceLimitsExcept", TEXT, null, "resource limits are not passed to jobs"),
        ignored("RebootProgram", TEXT, null, "scontrol reboot is not supported"),
        RECONFIG_FLAGS,
        ignored("RequeueExit", TEXT, null, "no automatic requeue on exit codes"),
        ignored("RequeueExitHold", TEXT, null, "no automatic requeue on exit codes"),
        ignored("ResumeFailProgram", TEXT, null, "no power saving"),
        ignored("ResumeProgram", TEXT, null, "no power saving"),
        ignored("ResumeRate", NODES_PER_MINUTE, "300", "no power saving"),
        ignored("ResumeTimeout", SECONDS, "60", "no power saving"),
        ignored("ResvEpilog", TEXT, null, "not run"),
        ignored("ResvOverRun", MINUTES, "0", "jobs end when their reservation ends"),
        ignored("ResvProlog", TEXT, null, "not run"),
        RETURN_TO_SERVICE,
        ignored("RoutePlugin", plugin(false, "route/default", "route/topology"), "route/default",
            "messages go straight to each node"),
        SCHEDULER_PARAMETERS,
        SCHEDULER_TIME_SLICE,
        honoured("SchedulerType", plugin(false, "sched/backfill", "sched/builtin"), "sched/backfill"),
        ignored("ScronParameters", TEXT, null, "no scrontab"),
        SELECT_TYPE,
        ignored("SelectTypeParameters", upper(), null, "CPUs and memory are always consumable (CR_Core_Memory)")
            .as("CR_CORE_MEMORY"),
        SLURM_USER,
        ignored("SlurmctldAddr", TEXT, null, "the controller is reached at SlurmctldHost"),
        ignored("SlurmctldDebug", TEXT, "info", "Corral's own log levels"),
        SLURMCTLD_HOST,
        SLURMCTLD_LOG_FILE,
        SLURMCTLD_PORT,
        SLURMCTLD_SYSLOG_DEBUG,
        ignored("SlurmctldPrimaryOffProg", TEXT, null, "several controllers elect a leader among themselves (Raft): no primary-off program is run"),
        ignored("SlurmctldPrimaryOnProg", TEXT, null, "several controllers elect a leader among themselves (Raft): no primary-on program is run"),
        ignored("SlurmctldTimeout", SECONDS, "120", "a controller that leads is missed after 1-2 s (the Raft election timeout)"),
        SLURMCTLD_PARAMETERS,
        ignored("SlurmdDebug", TEXT, "info", "Corral's own log levels"),
        SLURMD_LOG_FILE,
        ignored("SlurmdParameters", TEXT, null, "default node behaviour"),
        SLURMD_PID_FILE,
        SLURMD_PORT,
        SLURMD_SPOOL_DIR,
        SLURMD_SYSLOG_DEBUG,
        SLURMD_TIMEOUT,
        ignored("SlurmdUser", TEXT, "root", "slurmd runs as root"),
        ignored("SlurmSchedLogFile", TEXT, null, "no scheduler log"),
        ignored("SlurmSchedLogLevel", NUMBER, "0", "no scheduler log"),
        SLURMCTLD_PID_FILE,
        ignored("SlurmctldPlugstack", TEXT, null, "no controller plugins"),
        shown("SLURM_CONF"),
        shown("SLURM_VERSION"),
        ignored("SrunEpilog", TEXT, null, "not run"),
        honoured("SrunPortRange", TEXT, "0-0"),
        ignored("SrunProlog", TEXT, null, "not run"),
        STATE_SAVE_LOCATION,
        ignored("SuspendExcNodes", TEXT, null, "no power saving"),
        ignored("SuspendExcParts", TEXT, null, "no power saving"),
        ignored("SuspendProgram", TEXT, null, "no power saving"),
        ignored("SuspendRate", NODES_PER_MINUTE, "60", "no power saving"),
        ignored("SuspendTime", SECONDS_OR_INFINITE, "INFINITE", "no power saving"),
        ignored("SuspendTimeout", SECONDS, "30", "no power saving"),
        ignored("SwitchParameters", TEXT, null, "no switch plugin"),
        ignored("SwitchType", plugin(false, "switch/none", "switch/cray_aries", "switch/hpe_slingshot"),
            "switch/none", "no switch plugin"),
        TASK_EPILOG,
        ignored("TaskPlugin", plugin(true, "task/none", "task/affinity", "task/cgroup", "task/cray_aries"),
            "task/none", "confinement follows cgroup.conf; binding follows --cpu-bind").as("task/cgroup,task/affinity"),
        ignored("TaskPluginParam", TEXT, null, "binding follows --cpu-bind").withUnset("(null type)"),
        TASK_PROLOG,
        TCP_TIMEOUT,
        ignored("TmpFS", TEXT, "/tmp", "TmpDisk is not measured"),
        ignored("TopologyParam", TEXT, null, "no network topology"),
        ignored("TopologyPlugin", plugin(false, "topology/none", "topology/tree", "topology/3d_torus",
            "topology/hypercube"), "topology/none", "no network topology"),
        TRACK_WCKEY,
        ignored("TreeWidth", NUMBER, "50", "messages go straight to each node"),
        ignored("UsePAM", YES_NO, "no", "no PAM session for jobs"),
        ignored("UnkillableStepProgram", TEXT, null, "not run"),
        UNKILLABLE_STEP_TIMEOUT,
        ignored("VSizeFactor", PERCENT, "0", "no virtual memory limit"),
        ignored("WaitTime", SECONDS, "0", "srun waits for all its tasks"),
        ignored("X11Parameters", TEXT, null, "no X11 forwarding"),
        // Not printed by scontrol show config: the older controller keys (Corral reads them as
        // Slurm does), keys printed in 23.02 and later, and keys removed from Slurm that sites still carry.
        CONTROL_MACHINE,
        CONTROL_ADDR,
        METRICS_TYPE,
        METRICS_PARAMETERS,
        METRICS_AUTH_USERS,
        hidden(ignored("BackupController", TEXT, null, "backups are further SlurmctldHost lines")),
        hidden(ignored("BackupAddr", TEXT, null, "backups are further SlurmctldHost lines")),
        hidden(ignored("SuspendExcStates", TEXT, null, "no power saving (Slurm 23.02)")),
        hidden(ignored("AccountingStorageLoc", TEXT, null, "removed from Slurm")),
        hidden(ignored("CacheGroups", TEXT, null, "removed from Slurm")),
        hidden(ignored("CheckpointType", TEXT, null, "removed from Slurm")),
        hidden(ignored("CryptoType", TEXT, null, "removed from Slurm")),
        hidden(ignored("FastSchedule", TEXT, null, "removed from Slurm")),
        hidden(ignored("JobCheckpointDir", TEXT, null, "removed from Slurm")),
        hidden(ignored("KeepAliveTime", TEXT, null, "removed from Slurm")),
        hidden(ignored("MaxSuspendTime", TEXT, null, "removed from Slurm")),
        hidden(ignored("MemLimitEnforce", TEXT, null, "removed from Slurm")),
        hidden(ignored("SchedulerPort", TEXT, null, "removed from Slurm")),
        hidden(ignored("SchedulerRootFilter", TEXT, null, "removed from Slurm")));

    static final Map<String, ConfKey<?>> BY_NAME = byName();

    private static Map<String, ConfKey<?>> byName() {
      Map<String, ConfKey<?>> m = new HashMap<>(ALL.size() * 2);
      for (ConfKey<?> k : ALL) {
        if (k.support() != SHOWN_ONLY) {
          m.put(k.name().toLowerCase(Locale.ROOT), k);
        }
      }
      return m;
    }
  }

  /** Keys that start a record line (the rest of the line are its attributes). */
  static final Set<String> RECORDS = Set.of("nodename", "partitionname", "nodeset", "downnodes", "frontendname");

  /** More than the table has keys: a loaded file keeps one slot per key ({@link ConfKey#index}). */
  static final int SLOTS = 320;

  private SlurmConfKeys() {}

  /** Every key, in the order scontrol show config prints them; the unprinted ones last. */
  public static List<ConfKey<?>> all() {
    return Table.ALL;
  }

  /** The key of that name, any case, or null. */
  public static ConfKey<?> find(String name) {
    return Table.BY_NAME.get(name.toLowerCase(Locale.ROOT));
  }

  static boolean isKnown(String key) {
    return find(key) != null || RECORDS.contains(key.toLowerCase(Locale.ROOT));
  }

  private static <T> ConfKey<T> key(String name, ConfType<T> type, String dflt, Support support, String note) {
    return new ConfKey<>(next++, name, type, dflt, null, true, support, note, null);
  }

  private static <T> ConfKey<T> honoured(String name, ConfType<T> type, String dflt) {
    return key(name, type, dflt, HONOURED, "");
  }

  private static <T> ConfKey<T> ignored(String name, ConfType<T> type, String dflt, String note) {
    return key(name, type, dflt, NOT_IMPLEMENTED, note);
  }

  private static ConfKey<String> shown(String name) {
    return new ConfKey<>(next++, name, TEXT, null, null, true, SHOWN_ONLY, "", null);
  }

  private static <T> ConfKey<T> hidden(ConfKey<T> k) {
    return k.unprinted();
  }
}
