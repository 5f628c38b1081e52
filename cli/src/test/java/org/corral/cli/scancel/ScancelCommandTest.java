package org.corral.cli.scancel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.corral.protocol.msg.CancelJobsRequest;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Response;
import org.junit.jupiter.api.Test;

class ScancelCommandTest {

  FakeController scancel = new FakeController();

  @Test
  void cancelsTheGivenJobs() {
    scancel.results(12, 0, 13, 0);
    assertThat(scancel.run("12", "13")).isZero();
    CancelJobsRequest r = scancel.request();
    assertThat(r.getJobIdsList()).containsExactly(12, 13);
    assertThat(r.getSignal()).isZero();
    assertThat(r.getBatchOnly()).isFalse();
    assertThat(scancel.out).isEmpty();
    assertThat(scancel.err).isEmpty();
  }

  @Test
  void signalByNameOrNumberAndAfterTheOperand() {
    scancel.run("12", "--signal", "USR1");
    assertThat(scancel.request().getSignal()).isEqualTo(10);
    FakeController other = new FakeController();
    other.run("-s", "sigterm", "-b", "12");
    assertThat(other.request().getSignal()).isEqualTo(15);
    assertThat(other.request().getBatchOnly()).isTrue();
    FakeController numeric = new FakeController();
    numeric.run("--sig=2", "12");
    assertThat(numeric.request().getSignal()).isEqualTo(2);
  }

  @Test
  void fullIsPassedOn() {
    scancel.run("-s", "USR1", "--full", "12");
    assertThat(scancel.request().getFull()).isTrue();
    assertThat(scancel.request().getBatchOnly()).isFalse();
  }

  @Test
  void batchAloneKillsTheBatchShell() {
    scancel.run("-b", "12");
    assertThat(scancel.request().getSignal()).isEqualTo(9);
    assertThat(scancel.request().getBatchOnly()).isTrue();
  }

  @Test
  void filtersWithoutIdsSelectJobs() {
    assertThat(scancel.run("-u", "bob", "-t", "PD", "-p", "debug", "-n", "a,b")).isZero();
    CancelJobsRequest r = scancel.request();
    assertThat(r.getJobIdsList()).isEmpty();
    assertThat(r.getUserName()).isEqualTo("bob");
    assertThat(r.getStatesList()).containsExactly(JobState.PENDING);
    assertThat(r.getPartition()).isEqualTo("debug");
    assertThat(r.getJobName()).isEqualTo("a,b");
  }

  @Test
  void accountQosNodesReservationAndWckeyFilterToo() {
    assertThat(scancel.run("-A", "phys,chem", "-q", "high", "-w", "n[1-4]", "-R", "maint", "--wckey=w1")).isZero();
    CancelJobsRequest r = scancel.request();
    assertThat(r.getAccount()).isEqualTo("phys,chem");
    assertThat(r.getQos()).isEqualTo("high");
    assertThat(r.getNodeList()).isEqualTo("n[1-4]");
    assertThat(r.getReservation()).isEqualTo("maint");
    assertThat(r.getWckey()).isEqualTo("w1");
    assertThat(r.getListOnly()).isFalse();
    FakeController verbose = new FakeController();
    verbose.run("-v", "--wckey=w", "-u", "bob", "-t", "PD", "-R", "r", "-q", "x", "-p", "pp", "-w", "n1", "-n", "nm",
        "-A", "a");
    assertThat(verbose.err).isEqualTo("scancel: error: No active jobs match ALL job filters, including: account=a "
        + "job_name=nm nodelist=n1 partition=pp qos=x reservation=r state=PENDING user_name=bob wckey=w \n");
  }

  @Test
  void meMeansTheCallingUser() {
    scancel.run("--me", "--state=running");
    assertThat(scancel.request().getUserName()).isEqualTo("alice");
    assertThat(scancel.request().getStatesList()).containsExactly(JobState.RUNNING);
  }

  @Test
  void verboseReportsEachJobAndAnEmptyMatch() {
    scancel.run("-v", "-n", "x", "-t", "s", "-u", "bob");
    assertThat(scancel.err).isEqualTo("scancel: error: No active jobs match ALL job filters, "
        + "including: job_name=x state=SUSPENDED user_name=bob \n");
    FakeController found = new FakeController().results(7, 0, 8, 0);
    found.run("-v", "-s", "HUP", "-u", "bob");
    assertThat(found.err).isEqualTo("scancel: Signal 1 to job 7\nscancel: Signal 1 to job 8\n");
  }

  @Test
  void refusalExitsWithTheErrorNumberTruncated() {
    scancel.results(5, 2002, 6, 0);
    assertThat(scancel.run("5", "6")).isEqualTo(2002 & 0xFF);
    assertThat(scancel.err)
        .isEqualTo("scancel: error: Kill job error on job id 5: Access/permission denied\n");
  }

  @Test
  void signallingAFinishedJobIsAnUnknownIdWithStatusOne() {
    scancel.results(5, 2021);
    assertThat(scancel.run("-s", "KILL", "5")).isEqualTo(1);
    assertThat(scancel.err)
        .isEqualTo("scancel: error: Kill job error on job id 5: Invalid job id specified\n");
  }

  @Test
  void cancellingAFinishedJobIsQuietAndSucceeds() {
    scancel.results(5, 2021);
    assertThat(scancel.run("5")).isZero();
    assertThat(scancel.err).isEmpty();
  }

  @Test
  void controllerErrorIsPrinted() {
    scancel.response = Response.newBuilder().setErrorCode(2010)
        .setErrorMessage("Invalid user name: nosuchuser").build();
    assertThat(scancel.run("-u", "nosuchuser")).isEqualTo(1);
    assertThat(scancel.err).isEqualTo("scancel: error: Invalid user name: nosuchuser\n");
  }

  @Test
  void unreachableController() {
    scancel.failure = new IOException("refused");
    assertThat(scancel.run("5")).isEqualTo(8); // 1800 & 0xff, as Slurm 22.05 exits
    assertThat(scancel.err).isEqualTo("scancel: error: Kill job error on job id 5: "
        + "Unable to contact slurm controller (connect failure)\n");
    assertThat(scancel.run("-u", "bob")).isEqualTo(1);
  }

  @Test
  void arrayTasksAreNamedOneByOne() {
    assertThat(scancel.run("12_3", "13_[1-2]")).isZero();
    assertThat(scancel.requests.get(0).getCancelJobs().getArrayTasksList())
        .extracting(t -> t.getArrayJobId() + "_" + t.getTaskId()).containsExactly("12_3", "13_1", "13_2");
  }

  @Test
  void aStepIsCancelledByItsOwnRequest() {
    assertThat(scancel.run("-v", "12.3")).isZero();
    assertThat(scancel.err).isEqualTo("scancel: Terminating step 12.3\n");
    assertThat(scancel.requests).hasSize(1);
    assertThat(scancel.requests.get(0).getSignalStep().getJobId()).isEqualTo(12);
    assertThat(scancel.requests.get(0).getSignalStep().getStepId()).isEqualTo(3);
  }

  @Test
  void unsupportedFilterIsRefused() {
    assertThat(scancel.run("--sibling", "c2", "12")).isEqualTo(1);
    assertThat(scancel.err).isEqualTo("scancel: error: option --sibling is not supported by Corral\n");
  }

  @Test
  void versionNeedsNoController() {
    assertThat(scancel.run("-V")).isZero();
    assertThat(scancel.out).isEqualTo("slurm-wlm 22.05.8\n");
    assertThat(scancel.requests).isEmpty();
  }
}
