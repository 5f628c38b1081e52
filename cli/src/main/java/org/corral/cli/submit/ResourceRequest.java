package org.corral.cli.submit;

import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Consumer;
import org.corral.common.TimeSpec;
import org.corral.protocol.msg.JobSpec;

/** Puts the shared allocation options into a job request, the same for sbatch, srun and salloc. */
public final class ResourceRequest {

  private ResourceRequest() {}

  /**
   * @param now the time --begin and --deadline are read against
   * @throws CommandFailure for a --begin or --deadline Slurm does not read, or a deadline before the begin
   */
  public static JobSpec.Builder apply(ResourceOptions r, JobSpec.Builder b, String program, ZonedDateTime now)
      throws CommandFailure {
    set(r.partition, b::setPartition);
    if (r.minNodes != null) {
      b.setMinNodes(r.minNodes).setMaxNodes(r.maxNodes);
    }
    if (r.ntasks != null) {
      b.setNumTasks(r.ntasks);
    }
    if (r.cpusPerTask != null) {
      b.setCpusPerTask(r.cpusPerTask);
    }
    if (r.ntasksPerNode != null) {
      b.setNtasksPerNode(r.ntasksPerNode);
    }
    if (r.timeLimitMin != null) {
      b.setTimeLimitMin((int) (long) r.timeLimitMin);
    }
    if (r.memMb != null) {
      b.setMemPerNodeMb(r.memMb);
    }
    if (r.memPerCpuMb != null) {
      b.setMemPerCpuMb(r.memPerCpuMb);
    }
    set(r.nodeList, b::setReqNodes);
    set(r.excludeList, b::setExcNodes);
    set(r.constraint, b::setConstraint);
    set(r.licenses, b::setLicenses);
    set(r.reservation, b::setReservation);
    set(r.wckey, b::setWckey);
    set(r.account, b::setAccount);
    set(r.qos, b::setQos);
    set(r.comment, b::setComment);
    set(r.dependency, b::setDependency);
    set(r.distribution, b::setDistribution);
    set(r.container, b::setContainer);
    b.putAllPluginOptions(r.plugins().values());
    if (r.nice != null) {
      b.setNice(r.nice);
    }
    if (r.minCpus != null) {
      b.setMinCpusPerNode(r.minCpus);
    }
    if (r.begin != null) {
      b.setBeginTime(time(r.begin, "--begin", program, now));
    }
    if (r.deadline != null) {
      b.setDeadline(time(r.deadline, "--deadline", program, now));
      if (b.getBeginTime() > b.getDeadline()) {
        throw CommandFailure.error(program, "Incompatible begin and deadline time specification");
      }
    }
    r.gres.applyTo(b);
    return b.setExclusive(r.exclusive).setExclusiveUser(r.exclusiveUser).setOversubscribe(r.oversubscribe)
        .setContiguous(r.contiguous).setHold(r.hold).setOvercommit(r.overcommit);
  }

  /** --begin's or --deadline's time, or Slurm's two-line complaint (exit 255). */
  private static long time(String text, String option, String program, ZonedDateTime now) throws CommandFailure {
    try {
      return TimeSpec.parse(text, now);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(CommandFailure.USAGE_STATUS, List.of(
          "Invalid time specification (pos=0): " + text, program + ": error: Invalid " + option + " specification"));
    }
  }

  private static void set(String value, Consumer<String> setter) {
    if (value != null) {
      setter.accept(value);
    }
  }
}
