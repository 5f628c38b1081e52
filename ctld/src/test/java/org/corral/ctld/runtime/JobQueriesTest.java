package org.corral.ctld.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.ctld.state.StateMachine;
import org.corral.ctld.state.TestStates;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.NodeAllocation;
import org.junit.jupiter.api.Test;

/**
 * A query names users or jobs and the controller sends those rows alone: the same rows, in the
 * same order, as the whole queue filtered afterwards (what squeue did before), on a queue of many
 * users, states and arrays.
 */
class JobQueriesTest {
  private static final int USERS = 7;

  private static ClusterState queue() {
    ClusterState s = TestStates.cluster(2, 8, 8000);
    NodeAllocation n1 = NodeAllocation.newBuilder().setNode("n1").setCpus(1).setMemMb(100).build();
    int id = 1;
    for (int i = 0; i < 300; i++, id++) {
      int uid = 1000 + i % USERS;
      var spec = TestStates.spec().setHold(i % 3 == 0);
      if (i % 10 == 4) {
        spec.setArray("0-5");
      }
      s = StateMachine.apply(s, new Command.SubmitJob(id, 100 + i, uid, "u" + uid, uid, "u" + uid, spec.build()));
      if (i % 10 == 7) {
        s = StateMachine.apply(s, new Command.CancelJob(id, 200 + i, 0));
      }
    }
    for (int arrayId = 5; arrayId <= 300; arrayId += 10) { // two tasks of each array start
      for (int task = 0; task < 2; task++, id++) {
        s = StateMachine.apply(s, new Command.StartArrayTask(arrayId, task, id, 400, List.of(n1)));
      }
    }
    return s;
  }

  private static List<JobInfo> all(ClusterState s) {
    return JobQueries.jobInfo(JobInfoRequest.getDefaultInstance(), s).getJobsList();
  }

  @Test
  void theJobsOfTheUsersNamedAreTheWholeQueueFilteredInTheSameOrder() {
    ClusterState s = queue();
    List<JobInfo> all = all(s);
    assertThat(all).hasSize(s.jobs().size());
    for (Set<Integer> users : List.of(Set.of(1000), Set.of(1003, 1006), Set.of(4242))) {
      List<JobInfo> asked = JobQueries.jobInfo(JobInfoRequest.newBuilder().addAllUserIds(users).build(), s)
          .getJobsList();
      assertThat(asked).isEqualTo(all.stream().filter(j -> users.contains(j.getUserId())).toList());
    }
    assertThat(JobQueries.jobInfo(JobInfoRequest.newBuilder().addUserIds(1003).build(), s).getJobsList())
        .isNotEmpty().extracting(JobInfo::getState).hasSizeGreaterThan(1);
  }

  @Test
  void anArraysIdNamesItsRecordThenItsStartedTasksNewestFirst() {
    ClusterState s = queue();
    List<JobInfo> asked = JobQueries.jobInfo(JobInfoRequest.newBuilder().addJobIds(15).build(), s).getJobsList();
    List<JobInfo> expected = new java.util.ArrayList<>(List.of(s.jobs().get(15).getInfo()));
    List<JobInfo> tasks = all(s).stream().filter(j -> j.getArrayJobId() == 15 && j.getJobId() != 15).toList();
    assertThat(tasks).hasSize(2);
    expected.addAll(tasks.reversed());
    assertThat(asked).isEqualTo(expected);
    assertThat(JobQueries.jobInfo(JobInfoRequest.newBuilder().addJobIds(16).build(), s).getJobsList())
        .extracting(JobInfo::getJobId).containsExactly(16);
    assertThatThrownBy(() -> JobQueries.jobInfo(JobInfoRequest.newBuilder().addJobIds(99_999).build(), s))
        .isInstanceOf(SlurmException.class);
  }
}
