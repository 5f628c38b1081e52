package org.corral.cli.golden;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.corral.cli.format.UserDirectory;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeBaseState;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * The cluster state that golden/setup.sh built on the reference Slurm when the golden outputs
 * were recorded (see golden/README.md), written out as Corral's messages.
 */
final class ReferenceState {
  private ReferenceState() {}

  static final int INF = 0xFFFFFFFF;
  static final String DRAINED_NODES =
      "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions";

  /** 2026-11-23 at the given time of day, UTC, in epoch seconds. */
  static long t(String hms) {
    return LocalTime.parse(hms).atDate(java.time.LocalDate.of(2026, 11, 23))
        .toEpochSecond(ZoneOffset.UTC);
  }

  static final UserDirectory USERS = new UserDirectory() {
    private final List<String> names = List.of("root", "corral-alice", "corral-bob");
    private final List<Integer> uids = List.of(0, 1001, 1002);

    @Override
    public OptionalInt uidOf(String name) {
      int i = names.indexOf(name);
      return i < 0 ? OptionalInt.empty() : OptionalInt.of(uids.get(i));
    }

    @Override
    public Optional<String> nameOf(int uid) {
      int i = uids.indexOf(uid);
      return i < 0 ? Optional.empty() : Optional.of(names.get(i));
    }
  };

  private static JobInfo.Builder job(int id, String name, String user, String partition) {
    int uid = USERS.uidOf(user).getAsInt();
    return JobInfo.newBuilder().setJobId(id).setName(name).setUserName(user).setUserId(uid)
        .setGroupName(user).setGroupId(uid).setPartition(partition).setWorkDir("/tmp")
        .setStdOut("/tmp/slurm-" + id + ".out").setStdErr("/tmp/slurm-" + id + ".out")
        .setStdIn("/dev/null").setSubmitHost("localhost").setRequeue(true)
        .setNumNodes(1).setMinNodes(1).setNumCpus(1).setNumTasks(1).setCpusPerTask(1)
        .setMemPerCpuMb(100).setTimeLimitMin(INF).setPriority(1).setStateReason("None");
  }

  private static JobInfo.Builder pending(JobInfo.Builder b, String submit, int prio,
      String reason) {
    return b.setState(JobState.PENDING).setSubmitTime(t(submit)).setEligibleTime(t(submit))
        .setLastSchedEval(t("12:43:40")).setPriority(prio).setStateReason(reason);
  }

  private static JobInfo.Builder size(JobInfo.Builder b, int nodes, int cpus) {
    return b.setNumNodes(nodes).setMinNodes(nodes).setMaxNodes(nodes).setNumCpus(cpus)
        .setNumTasks(cpus);
  }

  static List<JobInfo> jobs() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int id : new int[] {133, 134}) {
      boolean ok = id == 133;
      jobs.add(job(id, ok ? "quick" : "failing", "root", "debug")
          .setState(ok ? JobState.COMPLETED : JobState.FAILED)
          .setStateReason(ok ? "None" : "NonZeroExitCode").setExitStatus(ok ? 0 : 256)
          .setSubmitTime(t("12:43:36")).setEligibleTime(t("12:43:36"))
          .setStartTime(t("12:43:36")).setEndTime(t("12:43:37")).setLastSchedEval(t("12:43:36"))
          .setTimeLimitMin(525600).setNodes("n1").setBatchHost("n1").build());
    }
    jobs.add(pending(job(135, "rootjob1", "root", "debug"), "12:43:37", 40, "Priority")
        .setTimeLimitMin(10).build());
    jobs.add(size(pending(job(136, "alicewide", "corral-alice", "long"), "12:43:37", 35,
        DRAINED_NODES), 2, 2).setTimeLimitMin(60).build());
    jobs.add(size(job(137, "bigbob", "corral-bob", "debug"), 1, 8).setState(JobState.RUNNING)
        .setPriority(60).setSubmitTime(t("12:43:39")).setEligibleTime(t("12:43:39"))
        .setStartTime(t("12:43:40")).setLastSchedEval(t("12:43:40")).setNodes("n1")
        .setBatchHost("n1").build());
    jobs.add(pending(job(138, "averyverylongjobname", "root", "debug"), "12:43:39", 20,
        "Priority").setTimeLimitMin(1440).build());
    jobs.add(size(pending(job(139, "waitall", "corral-bob", "debug"), "12:43:40", 55,
        DRAINED_NODES), 4, 4).build());
    jobs.add(size(pending(job(140, "behind", "corral-bob", "debug"), "12:43:40", 30,
        "Priority"), 3, 3).build());
    jobs.add(pending(job(141, "heldbob", "corral-bob", "debug"), "12:43:40", 0, "JobHeldUser")
        .setUserHeld(true).setEligibleTime(0).build());
    jobs.add(pending(job(142, "later", "corral-alice", "debug"), "12:43:40", 45, "BeginTime")
        .setTimeLimitMin(30).setEligibleTime(t("13:43:40")).setStartTime(t("13:43:40"))
        .build());
    jobs.add(size(pending(job(143, "depsrc", "root", "debug"), "12:43:40", 25, "Priority"),
        4, 4).build());
    jobs.add(pending(job(144, "depjob", "root", "debug"), "12:43:40", 50, "Dependency")
        .setDependency("afterok:143(unfulfilled)").setEligibleTime(0).build());
    jobs.add(size(pending(job(145, "adminheld", "root", "long"), "12:43:40", 0,
        "JobHeldAdmin"), 2, 2).setTimeLimitMin(60).build());
    jobs.add(size(job(146, "cancelme", "root", "debug"), 4, 4).setState(JobState.CANCELLED)
        .setNumTasks(0).setMaxNodes(0).setSubmitTime(t("12:43:40"))
        .setEligibleTime(t("12:43:40")).setStartTime(t("12:43:40")).setEndTime(t("12:43:40"))
        .setLastSchedEval(t("12:43:40")).build());
    return jobs;
  }

  private static NodeInfo.Builder node(int i, int load, long freeMem, String... partitions) {
    return NodeInfo.newBuilder().setName("n" + i).setHostname("vm").setAddr("vm")
        .setPort(17100 + i).setCpus(8).setSockets(8).setCoresPerSocket(1).setThreadsPerCore(1)
        .setRealMemoryMb(4000).setBaseState(NodeBaseState.NODE_IDLE).setWeight(1)
        .setVersion("22.05.8").setOs("Linux 6.18.44-fc-v657 #1 SMP PREEMPT_DYNAMIC @0")
        .setBootTime(t("12:12:44")).setSlurmdStartTime(t("12:22:07"))
        .setLastBusy(t("12:42:44")).setCpuLoad(load).setFreeMemMb(freeMem)
        .addAllPartitions(List.of(partitions));
  }

  static List<NodeInfo> nodes() {
    return List.of(
        node(1, 190, 22477, "debug").setAllocCpus(8).setAllocMemMb(800).setRunningJobs(1)
            .setLastBusy(t("12:43:37")).build(),
        node(2, 149, 23210, "debug").build(),
        node(3, 149, 23210, "debug", "long").build(),
        node(4, 129, 23365, "debug", "long").setDrain(true).setReason("maint")
            .setReasonTime(t("12:43:40")).setReasonUid(0).setLastBusy(t("12:42:46")).build());
  }

  static List<PartitionInfo> partitions() {
    return List.of(
        PartitionInfo.newBuilder().setName("debug").setNodes("n[1-4]")
            .addAllNodeNames(List.of("n1", "n2", "n3", "n4")).setIsDefault(true)
            .setMaxTimeMin(INF).setDefaultTimeMin(INF).setState("UP").setMinNodes(0)
            .setMaxNodes(INF).setAllowGroups("ALL").setAllowAccounts("ALL").setAllowQos("ALL")
            .setPriorityTier(1).setPriorityJobFactor(1).setOversubscribe("NO")
            .setPreemptMode("OFF").setMaxCpusPerNode(INF).setTotalCpus(32).setTotalNodes(4)
            .build(),
        PartitionInfo.newBuilder().setName("long").setNodes("n[3-4]")
            .addAllNodeNames(List.of("n3", "n4")).setMaxTimeMin(2880).setDefaultTimeMin(60)
            .setState("UP").setMinNodes(1).setMaxNodes(INF).setAllowGroups("ALL")
            .setAllowAccounts("ALL").setAllowQos("ALL").setPriorityTier(1)
            .setPriorityJobFactor(1).setOversubscribe("NO").setPreemptMode("OFF")
            .setMaxCpusPerNode(INF).setTotalCpus(16).setTotalNodes(2).build());
  }
}
