package org.corral.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.corral.ctld.sched.limits.AssocTree;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;

/** Whatever runs, a pending job preempts only jobs of partitions below its own tier, and only what makes it fit. */
class PreemptionPropertiesTest {
  @Property(tries = 200)
  void aPreemptorNeverPreemptsAJobOfItsOwnTierOrHigher(
      @ForAll @Size(min = 1, max = 8) List<@IntRange(min = 1, max = 3) Integer> tiers,
      @ForAll @Size(min = 8, max = 8) List<@IntRange(min = 1, max = 4) Integer> cpus,
      @ForAll @IntRange(min = 1, max = 3) int preemptorTier, @ForAll @IntRange(min = 1, max = 8) int wanted) {
    ClusterState s = PreemptionPlanningTest.cluster(2, 4, new Object[] {1, "REQUEUE", 0},
        new Object[] {2, "CANCEL", 0}, new Object[] {3, "SUSPEND,GANG", 0});
    for (int i = 0; i < tiers.size(); i++) {
      s = PreemptionPlanningTest.submit(s, i + 1, "p" + tiers.get(i), cpus.get(i), 1000 + i);
      s = PreemptionPlanningTest.apply(s, PreemptionPlanningTest.plan(s, 1100, PreemptionPlanningTest.PARTITION_PRIO,
          AssocTree.NONE), 1100);
    }
    // Only the preemptor may be waiting: a job pending before it may preempt on its own behalf
    // (seed -2601006749075774974: job 6 of the preemptor's own tier did, and the preemptor then
    // rightly waited on Priority behind it).
    ClusterState before = s;
    Assume.that(before.jobs().values().stream().noneMatch(r -> r.getInfo().getState() == JobState.PENDING));
    int preemptor = 100;
    s = PreemptionPlanningTest.submit(s, preemptor, "p" + preemptorTier, wanted, 1200);
    Plan p = PreemptionPlanningTest.plan(s, 1300, PreemptionPlanningTest.PARTITION_PRIO, AssocTree.NONE);
    for (Command c : p.preemptions()) {
      int victim = c instanceof Command.PreemptJob x ? x.jobId() : ((Command.SuspendJob) c).jobId();
      JobInfo v = PreemptionPlanningTest.job(s, victim);
      assertThat(Integer.parseInt(v.getPartition().substring(1))).isLessThan(preemptorTier);
    }
    if (!p.preemptions().isEmpty()) {
      assertThat(p.starts()).extracting(Command.StartJob::jobId).doesNotContain(preemptor);
      assertThat(p.reasons()).containsEntry(preemptor, "Resources");
    }
  }
}
