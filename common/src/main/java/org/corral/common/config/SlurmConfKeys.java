package org.corral.common.config;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.StringTokenizer;

/**
 * The top-level parameters of slurm.conf(5) (Slurm 22.05) and older names Slurm still accepts,
 * so that real site configurations load without "unknown key" warnings.
 */
final class SlurmConfKeys {
  private static final Set<String> KNOWN = lower("""
      AccountingStorageBackupHost AccountingStorageEnforce AccountingStorageExternalHost
      AccountingStorageHost AccountingStorageParameters AccountingStoragePass AccountingStoragePort
      AccountingStorageTRES AccountingStorageType AccountingStorageUser AccountingStoreFlags
      AcctGatherNodeFreq AcctGatherEnergyType AcctGatherInterconnectType AcctGatherFilesystemType
      AcctGatherProfileType AllowSpecResourcesUsage AuthAltTypes AuthAltParameters AuthInfo AuthType
      BackupAddr BackupController BatchStartTimeout BcastExclude BcastParameters BurstBufferType
      CliFilterPlugins ClusterName CommunicationParameters CompleteWait ControlAddr ControlMachine
      CoreSpecPlugin CpuFreqDef CpuFreqGovernors CredType DebugFlags DefCpuPerGPU DefMemPerCPU DefMemPerGPU
      DefMemPerNode DependencyParameters DisableRootJobs EioTimeout EnforcePartLimits Epilog EpilogMsgTime
      EpilogSlurmctld ExtSensorsFreq ExtSensorsType FairShareDampeningFactor FederationParameters
      FirstJobId GetEnvTimeout GresTypes GroupUpdateForce GroupUpdateTime GpuFreqDef HealthCheckInterval
      HealthCheckNodeState HealthCheckProgram InactiveLimit InteractiveStepOptions JobAcctGatherType
      JobAcctGatherFrequency JobAcctGatherParams JobCompHost JobCompLoc JobCompParams JobCompPass
      JobCompPort JobCompType JobCompUser JobContainerType JobFileAppend JobRequeue JobSubmitPlugins
      KillOnBadExit KillWait NodeFeaturesPlugins LaunchParameters LaunchType Licenses LogTimeFormat
      MailDomain MailProg MaxArraySize MaxDBDMsgs MaxJobCount MaxJobId MaxMemPerCPU MaxMemPerNode
      MaxNodeCount MaxStepCount MaxTasksPerNode MCSParameters MCSPlugin MessageTimeout MinJobAge MpiDefault
      MpiParams OverTimeLimit PluginDir PlugStackConfig PowerParameters PowerPlugin PreemptMode PreemptType
      PreemptExemptTime PrEpParameters PrEpPlugins PriorityCalcPeriod PriorityDecayHalfLife
      PriorityFavorSmall PriorityFlags PriorityMaxAge PriorityParameters PrioritySiteFactorParameters
      PrioritySiteFactorPlugin PriorityType PriorityUsageResetPeriod PriorityWeightAge PriorityWeightAssoc
      PriorityWeightFairshare PriorityWeightJobSize PriorityWeightPartition PriorityWeightQOS
      PriorityWeightTRES PrivateData ProctrackType Prolog PrologEpilogTimeout PrologFlags PrologSlurmctld
      PropagatePrioProcess PropagateResourceLimits PropagateResourceLimitsExcept RebootProgram
      ReconfigFlags RequeueExit RequeueExitHold ResumeFailProgram ResumeProgram ResumeRate ResumeTimeout
      ResvEpilog ResvOverRun ResvProlog ReturnToService RoutePlugin SchedulerParameters SchedulerTimeSlice
      SchedulerType ScronParameters SelectType SelectTypeParameters SlurmctldAddr SlurmctldDebug
      SlurmctldHost SlurmctldLogFile SlurmctldParameters SlurmctldPidFile SlurmctldPlugstack SlurmctldPort
      SlurmctldPrimaryOffProg SlurmctldPrimaryOnProg SlurmctldSyslogDebug SlurmctldTimeout SlurmdDebug
      SlurmdLogFile SlurmdParameters SlurmdPidFile SlurmdPort SlurmdSpoolDir SlurmdSyslogDebug
      SlurmdTimeout SlurmdUser SlurmSchedLogFile SlurmSchedLogLevel SlurmUser SrunEpilog SrunPortRange
      SrunProlog StateSaveLocation SuspendExcNodes SuspendExcParts SuspendExcStates SuspendProgram
      SuspendRate SuspendTime SuspendTimeout SwitchParameters SwitchType TaskEpilog TaskPlugin
      TaskPluginParam TaskProlog TCPTimeout TmpFS TopologyParam TopologyPlugin TrackWCKey TreeWidth
      UnkillableStepProgram UnkillableStepTimeout UsePAM VSizeFactor WaitTime X11Parameters
      """);

  /** Removed or renamed parameters that sites still carry. */
  private static final Set<String> LEGACY = lower("""
      AccountingStorageLoc CacheGroups CheckpointType CryptoType FastSchedule JobCheckpointDir
      JobCredentialPrivateKey JobCredentialPublicCertificate KeepAliveTime MaxSuspendTime MemLimitEnforce
      SchedulerPort SchedulerRootFilter
      """);

  /** Keys that start a record line (the rest of the line are its attributes). */
  static final Set<String> RECORDS = Set.of("nodename", "partitionname", "nodeset", "downnodes", "frontendname");

  private SlurmConfKeys() {}

  static boolean isKnown(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return KNOWN.contains(k) || LEGACY.contains(k) || RECORDS.contains(k);
  }

  /** The words, lower-cased. A tokenizer, not a regex and a stream: every command loads this. */
  private static Set<String> lower(String words) {
    Set<String> set = new HashSet<>();
    for (StringTokenizer t = new StringTokenizer(words); t.hasMoreTokens(); ) {
      set.add(t.nextToken().toLowerCase(Locale.ROOT));
    }
    return Set.copyOf(set);
  }
}
