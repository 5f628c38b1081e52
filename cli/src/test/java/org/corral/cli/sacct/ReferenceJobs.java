package org.corral.cli.sacct;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.StepUsage;

/**
 * The jobs of the reference recording (golden/sacct, Slurm 22.05 with slurmdbd, cluster
 * "reference", 4 nodes of 8 CPUs, DefMemPerCPU=100) rebuilt as slurmdbd would hand them to sacct:
 * times from 2026-11-24 00:46:50 UTC; alice (1001) and bob (1002) in physics and theory.
 */
final class ReferenceJobs {
  private ReferenceJobs() {}

  static final long DAY = 1_795_478_400L; // 2026-11-24T00:00:00Z
  /** When the recordings were taken. */
  static final long NOW = DAY + 48 * 60 + 47;

  private static long t(int min, int sec) {
    return DAY + min * 60L + sec;
  }

  private static AcctJob.Builder job(int id, String name, int uid, String account, JobState state, int exit,
      long submit, long start, long end, String nodes, int cpus, long memMb) {
    String user = switch (uid) {
      case 0 -> "root";
      case 1001 -> "alice";
      default -> "bob";
    };
    int nodeCount = nodes.contains("[") ? 2 : 1;
    return AcctJob.newBuilder().setCluster("reference").setJobId(id).setName(name).setUserId(uid).setUserName(user)
        .setGroupId(uid).setGroupName(user).setAccount(account).setPartition("debug").setState(state)
        .setExitStatus(exit).setSubmitTime(submit).setEligibleTime(submit).setStartTime(start).setEndTime(end)
        .setTimeLimitMin(0xFFFFFFFF).setNodes(nodes).setNumNodes(nodeCount).setNumCpus(cpus).setReqCpus(cpus)
        .setReqNodes(nodeCount).setNumTasks(1).setReqMemMb(100).setMemPerCpu(true).setAllocMemMb(memMb)
        .setPriority(1).setWorkDir("/tmp").setSubmitLine("/usr/bin/sbatch -J " + name);
  }

  private static AcctStep.Builder step(int id, String name, JobState state, int exit, long start, long elapsed,
      String nodes, int tasks, int cpus, long memMb, long userMs, long sysMs) {
    return AcctStep.newBuilder().setStepId(id).setName(name).setState(state).setExitStatus(exit)
        .setStartTime(start).setEndTime(start + elapsed).setNodes(nodes)
        .setNumNodes(nodes.contains("[") ? 2 : 1).setNumTasks(tasks).setNumCpus(cpus).setReqMemMb(memMb)
        .setUsage(StepUsage.newBuilder().setUserCpuMs(userMs).setSysCpuMs(sysMs).setNtasks(tasks));
  }

  private static AcctStep.Builder batch(JobState state, int exit, long start, long elapsed, String node, int cpus,
      long memMb, long userMs, long sysMs) {
    return step(StepIds.BATCH, "batch", state, exit, start, elapsed, node, 1, cpus, memMb, userMs, sysMs);
  }

  /** A sampled batch step: memory in KiB, disk read in bytes, pages, average CPU frequency in kHz. */
  private static AcctStep.Builder sampled(AcctStep.Builder s, String node, long rssKb, long vmKb, long pages,
      long freqKhz, long readBytes) {
    StepUsage.Builder u = s.getUsage().toBuilder().setMaxRssKb(rssKb).setAveRssKb(rssKb).setMaxRssNode(node)
        .setMaxVmsizeKb(vmKb).setAveVmsizeKb(vmKb).setMaxVmsizeNode(node).setMaxPages(pages).setAvePages(pages)
        .setMaxPagesNode(node).setMinCpuNode(node).setAveCpuFreqKhz(freqKhz).setMaxDiskRead(readBytes)
        .setAveDiskRead(readBytes).setMaxDiskReadNode(node).setMaxDiskWrite(1024).setAveDiskWrite(1024)
        .setMaxDiskWriteNode(node);
    return s.setUsage(u);
  }

  static List<AcctJob> all() {
    List<AcctJob> jobs = new ArrayList<>();
    final JobState cd = JobState.COMPLETED;
    final JobState ca = JobState.CANCELLED;
    final JobState f = JobState.FAILED;
    jobs.add(job(1, "ok", 1001, "physics", cd, 0, t(46, 50), t(46, 50), t(46, 50), "n1", 1, 100)
        .addSteps(batch(cd, 0, t(46, 50), 0, "n1", 1, 100, 0, 1)).build());
    jobs.add(job(2, "fail", 1001, "physics", f, 3 << 8, t(47, 1), t(47, 2), t(47, 3), "n1", 1, 100)
        .addSteps(batch(f, 3 << 8, t(47, 2), 1, "n1", 1, 100, 10, 0)).build());
    jobs.add(job(3, "longrun", 1002, "theory", ca, 0, t(47, 1), t(47, 2), t(47, 16), "n1", 1, 100)
        .setCancelled(true).setCancelledBy(0)
        .addSteps(sampled(batch(ca, 15, t(47, 2), 14, "n1", 1, 100, 5, 0), "n1", 3180, 5512, 0, 2_600_000, 11087))
        .build());
    jobs.add(job(4, "held", 1002, "theory", ca, 0, t(47, 1), 0, t(47, 16), "", 1, 100)
        .setEligibleTime(0).setCancelled(true).setCancelledBy(0).setReason("JobHeldUser").build());
    jobs.add(job(5, "tmo", 1001, "physics", JobState.TIMEOUT, 0, t(47, 1), t(47, 2), t(48, 7), "n1", 1, 100)
        .setEligibleTime(t(47, 2)).setTimeLimitMin(1)
        .addSteps(sampled(batch(ca, 15, t(47, 2), 65, "n1", 1, 100, 0, 2), "n1", 3228, 5512, 0, 2_600_000, 11087))
        .build());
    jobs.add(job(6, "steps", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 4), "n[1-2]", 2, 200)
        .addSteps(batch(cd, 0, t(47, 2), 2, "n1", 1, 100, 8, 28))
        .addSteps(step(0, "hostname", cd, 0, t(47, 2), 0, "n[1-2]", 2, 2, 200, 4, 0))
        .addSteps(step(1, "sleep", cd, 0, t(47, 3), 1, "n[1-2]", 2, 2, 200, 3, 1)).build());
    jobs.add(job(7, "arr", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 4), "n1", 1, 100)
        .setArrayJobId(7).setArrayTaskId(3)
        .addSteps(batch(cd, 0, t(47, 2), 2, "n1", 1, 100, 3, 0)).build());
    jobs.add(job(8, "oom", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 15), "n1", 1, 50)
        .setReqMemMb(50).setMemPerCpu(false)
        .addSteps(sampled(batch(cd, 0, t(47, 2), 13, "n1", 1, 50, 27, 351), "n1", 419344, 426148, 3, 0, 48346))
        .build());
    jobs.add(job(9, "selfcancel", 1002, "theory", ca, 0, t(47, 2), t(47, 2), t(47, 16), "n2", 1, 100)
        .setCancelled(true).setCancelledBy(1002)
        .addSteps(sampled(batch(ca, 15, t(47, 2), 14, "n2", 1, 100, 2, 0), "n2", 3080, 5512, 0, 2_600_000, 11087))
        .build());
    jobs.add(job(10, "theoryjob", 1001, "theory", cd, 0, t(47, 2), t(47, 2), t(47, 5), "n2", 2, 200)
        .setReqMemMb(200).setMemPerCpu(false)
        .addSteps(batch(cd, 0, t(47, 2), 3, "n2", 2, 200, 11, 0)).build());
    jobs.add(job(11, "badacct", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 3), "n2", 1, 100)
        .addSteps(batch(cd, 0, t(47, 2), 1, "n2", 1, 100, 7, 0)).build());
    jobs.add(job(12, "qoshigh", 1002, "theory", cd, 0, t(47, 2), t(47, 2), t(47, 5), "n2", 1, 100)
        .setQos("high").setTimeLimitMin(10)
        .addSteps(batch(cd, 0, t(47, 2), 3, "n2", 1, 100, 8, 0)).build());
    jobs.add(job(13, "rootjob", 0, "root", cd, 0, t(47, 2), t(47, 2), t(47, 3), "n2", 1, 100)
        .addSteps(batch(cd, 0, t(47, 2), 1, "n2", 1, 100, 3, 0)).build());
    jobs.add(job(14, "sigkill", 1001, "physics", f, 9, t(47, 2), t(47, 2), t(47, 3), "n2", 1, 100)
        .addSteps(batch(ca, 9, t(47, 2), 1, "n2", 1, 100, 0, 2)).build());
    jobs.add(job(15, "stepfail", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 3), "n3", 1, 100)
        .setDerivedExitStatus(1 << 8)
        .addSteps(batch(cd, 0, t(47, 2), 1, "n3", 1, 100, 10, 5))
        .addSteps(step(0, "false", f, 1 << 8, t(47, 2), 0, "n3", 1, 1, 100, 1, 1)).build());
    jobs.add(job(16, "arr", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 4), "n1", 1, 100)
        .setArrayJobId(7).setArrayTaskId(1)
        .addSteps(batch(cd, 0, t(47, 2), 2, "n1", 1, 100, 1, 2)).build());
    jobs.add(job(17, "arr", 1001, "physics", cd, 0, t(47, 2), t(47, 2), t(47, 5), "n1", 1, 100)
        .setArrayJobId(7).setArrayTaskId(2)
        .addSteps(batch(cd, 0, t(47, 2), 3, "n1", 1, 100, 7, 1)).build());
    jobs.add(job(18, "oom2", 1001, "physics", f, 9, t(47, 42), t(47, 42), t(47, 47), "n1", 1, 50)
        .setReqMemMb(50).setMemPerCpu(false)
        .addSteps(sampled(batch(ca, 9, t(47, 42), 5, "n1", 1, 50, 0, 2), "n1", 419036, 426148, 1, 0, 48346)
            .setCancelled(true).setCancelledBy(0))
        .build());
    return jobs;
  }
}
