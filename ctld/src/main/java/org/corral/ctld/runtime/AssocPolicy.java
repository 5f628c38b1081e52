package org.corral.ctld.runtime;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.corral.common.SlurmError;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.sched.limits.LimitCheck;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.JobStates;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;

/**
 * A submission against the associations (with accounting on): the account defaults to the
 * user's DefaultAccount and the QOS to the association's default; with
 * AccountingStorageEnforce=associations the user must have an association for the account and
 * partition, with =qos the QOS must be one it may use, with =limits the submit limits hold
 * (MaxSubmitJobs, GrpSubmitJobs, the QOS's MaxSubmitJobsPerUser). Refusals carry Slurm's errors.
 */
final class AssocPolicy {
  private final AssociationCache cache;

  AssocPolicy(AssociationCache cache) {
    this.cache = cache;
  }

  /**
   * Before a submission goes to the writer (never on it: this may ask slurmdbd): fetches the
   * associations again when the job names a user, account or QOS not known yet.
   */
  void prefetch(JobSpec spec, String user) {
    if (cache.enabled() && needsFetch(cache.current(), spec, user)) {
      cache.refresh();
    }
  }

  /**
   * A user a reservation names: with associations enforced it must have one (Slurm: "Invalid
   * account or account/partition combination specified"). Fetches them again once when unknown.
   */
  void reservationUser(String user) {
    if (cache.enforces("associations") && !cache.current().hasAssociation(user)
        && !(cache.refresh() && cache.current().hasAssociation(user))) {
      throw new SlurmException(SlurmError.INVALID_ACCOUNT);
    }
  }

  /** An account a reservation names: with accounting on it must be known (Slurm's same error). */
  void reservationAccount(String account) {
    if (cache.enabled() && !cache.current().hasAccount(account)
        && !(cache.refresh() && cache.current().hasAccount(account))) {
      throw new SlurmException(SlurmError.INVALID_ACCOUNT);
    }
  }

  /** The submission with its account and QOS filled in, or Slurm's refusal (writer thread: no I/O). */
  JobSpec apply(JobSpec spec, String user, ClusterState s) {
    if (!cache.tracksWckeys() && !spec.getWckey().isEmpty()) {
      spec = spec.toBuilder().clearWckey().build(); // without TrackWCKey Slurm keeps no wckey
    }
    if (!cache.enabled()) {
      return spec;
    }
    AssocTree tree = cache.current();
    if (tree.isEmpty()) {
      if (cache.enforces("associations")) {
        throw new SlurmException(SlurmError.INVALID_ACCOUNT);
      }
      return spec;
    }
    spec = withWckey(spec, user, tree);
    String account = spec.getAccount();
    if (account.isEmpty()) {
      account = tree.user(user).map(u -> u.getDefaultAccount()).orElse("");
    }
    Optional<AcctAssoc> assoc = account.isEmpty() ? Optional.empty() : tree.assoc(user, account, spec.getPartition());
    if (assoc.isEmpty()) {
      if (cache.enforces("associations")) {
        throw new SlurmException(SlurmError.INVALID_ACCOUNT);
      }
      // No association (not enforced): Slurm still gives the job its default QOS, normal.
      String qos = spec.getQos().isEmpty() && tree.qos("normal").isPresent() ? "normal" : spec.getQos();
      return spec.toBuilder().setAccount(account).setQos(qos).build();
    }
    String qos = spec.getQos().isEmpty() ? tree.defaultQos(assoc.get()) : spec.getQos();
    List<String> allowed = tree.allowedQos(assoc.get());
    if (tree.qos(qos).isEmpty() || (cache.enforces("qos") && !allowed.isEmpty() && !allowed.contains(qos))) {
      throw new SlurmException(SlurmError.INVALID_QOS);
    }
    if (cache.enforces("limits")) {
      checkSubmitLimits(tree, assoc.get(), tree.qos(qos).orElseThrow(), user, account, s);
    }
    var partition = s.partition(spec.getPartition());
    if (partition.isPresent()) {
      checkPartition(partition.get(), account, qos);
    }
    return spec.toBuilder().setAccount(account).setQos(qos).build();
  }

  /**
   * QOS Flags=DenyOnLimit (AccountingStorageEnforce=limits or qos): the job as submitted, with
   * its CPUs, nodes and time limit worked out, is refused with Slurm's error when it breaks one
   * of its QOS's limits on its own, instead of pending (see {@link LimitCheck#deniedOnLimit}).
   */
  void denyOnLimit(JobInfo job) {
    if (!cache.enabled() || !(cache.enforces("limits") || cache.enforces("qos")) || job.getQos().isEmpty()) {
      return;
    }
    Optional<AcctQos> qos = cache.current().qos(job.getQos());
    if (qos.isPresent() && LimitCheck.deniedOnLimit(job, qos.get()) != null) {
      throw new SlurmException(SlurmError.ACCOUNTING_POLICY);
    }
  }

  /** Whether the submission's QOS has Flags=DenyOnLimit (so that its job is checked whole). */
  boolean deniesOnLimit(JobSpec spec) {
    return cache.enabled() && !spec.getQos().isEmpty()
        && cache.current().qos(spec.getQos()).map(q -> LimitCheck.hasFlag(q, "DenyOnLimit")).orElse(false);
  }

  /**
   * TrackWCKey: the job's wckey, or the user's DefaultWCKey with "*" before it (Slurm's mark of a
   * default one) when it names none; with AccountingStorageEnforce=wckeys one the user does not
   * hold on this cluster is refused with Slurm's error.
   */
  private JobSpec withWckey(JobSpec spec, String user, AssocTree tree) {
    if (!cache.tracksWckeys()) {
      return spec;
    }
    String w = spec.getWckey();
    if (w.isEmpty()) {
      String d = tree.user(user).map(u -> u.getDefaultWckey()).orElse("");
      return d.isEmpty() ? spec : spec.toBuilder().setWckey("*" + d).build();
    }
    if (cache.enforces("wckeys") && tree.snapshot().getWckeysList().stream()
        .noneMatch(k -> k.getName().equals(w) && k.getUser().equals(user))) {
      throw new SlurmException(SlurmError.INVALID_WCKEY);
    }
    return spec;
  }

  /** The partition's AllowAccounts, DenyAccounts and AllowQos, once the account and QOS are known. */
  private static void checkPartition(org.corral.protocol.msg.PartitionInfo p, String account, String qos) {
    if (!listed(p.getAllowAccounts(), account, true) || listed(p.getDenyAccounts(), account, false)) {
      throw new SlurmException(SlurmError.INVALID_ACCOUNT);
    }
    if (!listed(p.getAllowQos(), qos, true)) {
      throw new SlurmException(SlurmError.INVALID_QOS);
    }
  }

  /** Whether {@code name} is in the comma list; "ALL" (or, when {@code emptyMeansAll}, "") holds everything. */
  private static boolean listed(String list, String name, boolean emptyMeansAll) {
    if (list.isBlank()) {
      return emptyMeansAll;
    }
    if (list.equalsIgnoreCase("ALL")) {
      return true;
    }
    return java.util.Arrays.stream(list.split(",")).map(String::trim).anyMatch(name::equals);
  }

  private static boolean needsFetch(AssocTree tree, JobSpec spec, String user) {
    if (tree.user(user).isEmpty()) {
      return true;
    }
    return !spec.getAccount().isEmpty() && tree.assoc(user, spec.getAccount(), spec.getPartition()).isEmpty()
        || !spec.getQos().isEmpty() && tree.qos(spec.getQos()).isEmpty();
  }

  /** MaxSubmitJobs (nearest set), GrpSubmitJobs (every level), the QOS's per-user submit limit. */
  private static void checkSubmitLimits(AssocTree tree, AcctAssoc assoc, AcctQos qos, String user, String account,
      ClusterState s) {
    OptionalLong max = tree.max(assoc, AssocTree::maxSubmitJobs);
    List<AcctAssoc> grp = tree.chain(assoc).stream().filter(c -> c.getLimits().hasGrpSubmitJobs()).toList();
    if (max.isEmpty() && !qos.hasMaxSubmitJobsPerUser() && grp.isEmpty()) {
      return; // nothing to count: no pass over the jobs on the writer thread
    }
    long mine = 0;
    long qosMine = 0;
    java.util.Map<Integer, Long> under = new java.util.HashMap<>(); // jobs at or below each Grp association
    for (JobRecord r : s.jobs().values()) {
      JobInfo j = r.getInfo();
      if (JobStates.isFinished(j)) {
        continue;
      }
      if (j.getUserName().equals(user)) {
        if (j.getAccount().equals(account)) {
          mine++;
        }
        if (qos.getName().equals(j.getQos().isEmpty() ? "normal" : j.getQos())) {
          qosMine++;
        }
      }
      if (!grp.isEmpty() && !j.getAccount().isEmpty()) {
        tree.assoc(j.getUserName(), j.getAccount(), j.getPartition()).ifPresent(a -> {
          for (AcctAssoc c : tree.chain(a)) {
            if (grp.contains(c)) {
              under.merge(c.getId(), 1L, Long::sum);
            }
          }
        });
      }
    }
    if (max.isPresent() && mine >= max.getAsLong()
        || qos.hasMaxSubmitJobsPerUser() && qosMine >= qos.getMaxSubmitJobsPerUser()) {
      throw new SlurmException(SlurmError.ACCOUNTING_POLICY);
    }
    for (AcctAssoc c : grp) {
      if (under.getOrDefault(c.getId(), 0L) >= c.getLimits().getGrpSubmitJobs()) {
        throw new SlurmException(SlurmError.ACCOUNTING_POLICY);
      }
    }
  }
}
