/**
 * Confinement of jobs and steps on the node: cgroup v1 and v2 behind one {@link
 * org.corral.slurmd.cgroup.ResourceLimiter}, chosen by {@link org.corral.slurmd.cgroup.LimiterSelection}
 * from cgroup.conf's CgroupPlugin (autodetect, cgroup/v1, cgroup/v2); {@link
 * org.corral.slurmd.cgroup.NoConfinement} only when neither works (logged once, and reported to the
 * controller, which shows it in {@code scontrol show config}).
 *
 * <h2>Layout</h2>
 * In each hierarchy (v1: memory, cpuset, cpuacct; v2: the unified tree), under the daemon's own
 * cgroup: {@code <cluster>/slurm_<node>/uid_<uid>/job_<jobid>/step_<stepid>}, the cluster's level
 * so that clusters on one host never touch each other's ({@link
 * org.corral.slurmd.cgroup.NodeCgroupName}). Limits (memory, cpuset) are set on the job level;
 * processes only join step directories.
 *
 * <h2>Life of a job's scope</h2>
 * <pre>{@code
 * ResourceLimiter limiter = LimiterSelection.choose(cgroupConf, NodeCgroupName.of(slurmConf, nodeName),
 *     realMemoryBytes);
 *
 * // 1. When the job starts on this node (batch launch, or the first step of an allocation):
 * //    cpus = host CPU ids (empty = not constrained); memory = the job's memory on this node in
 * //    bytes (0 = none asked). cgroup.conf decides what is actually limited. Idempotent.
 * JobScope job = limiter.limitJob(jobId, uid, cpus, memoryBytes);
 *
 * // 2. For each step ("batch", "extern", "0", "1", ...), before its processes run user code:
 * StepScope step = job.openStep("0");              // or limiter.openStep(jobId, "0")
 * List<Path> files = step.procsFiles();            // one per v1 hierarchy; one for v2; none (no-op)
 * //    The task's launcher (a shell, as root, before dropping privileges) writes its own pid
 * //    into each file:  for f in FILES; do echo $$ > "$f" || exit 1; done
 * //    Children inherit the membership.
 *
 * // 3. While it runs: step.pids() (processes in the step), step.usage() (CPU user/system ms,
 * //    memory peak, OOM kills). Sampling per task with org.corral.slurmd.usage.ProcReader and
 * //    accumulation with org.corral.slurmd.usage.StepUsageTracker give sstat's figures.
 *
 * // 4. When the job ends on this node: whether the OOM killer struck, then remove (SIGKILL to
 * //    whatever is left in the scope, then rmdir of the steps and the job).
 * boolean oom = job.oomKills() > 0;
 * job.remove();
 * }</pre>
 * After a daemon restart, {@link org.corral.slurmd.cgroup.ResourceLimiter#findJob(int)} finds the
 * scope of a job started by the previous daemon.
 */
package org.corral.slurmd.cgroup;
