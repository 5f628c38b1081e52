package org.corral.ctld.sched.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.JobInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** QOS Flags=DenyOnLimit: a job that breaks a QOS limit on its own is refused at submit. */
class DenyOnLimitTest {

  private static AcctQos qos(String flags, String limit) {
    AcctQos.Builder q = AcctQos.newBuilder().setName("q");
    if (!flags.isEmpty()) {
      q.addAllFlags(java.util.List.of(flags.split(",")));
    }
    String[] kv = limit.split("=", 2);
    switch (kv[0]) {
      case "MaxWall" -> q.setMaxWallMinutes(Integer.parseInt(kv[1]));
      case "MaxTRESPerJob" -> q.setMaxTresPerJob(kv[1]);
      case "MaxTRESPerUser" -> q.setMaxTresPerUser(kv[1]);
      case "GrpTRES" -> q.setGrpTres(kv[1]);
      case "MaxJobsPerUser" -> q.setMaxJobsPerUser(Integer.parseInt(kv[1]));
      case "GrpJobs" -> q.setGrpJobs(Integer.parseInt(kv[1]));
      default -> { }
    }
    return q.build();
  }

  @ParameterizedTest(name = "flags [{0}] {1}; job {2} CPUs {3} nodes {4} min -> {5}")
  @CsvSource(nullValues = "none", value = {
      // flags,        limit,                   cpus, nodes, minutes, refused for
      "DenyOnLimit,    MaxWall=10,                 1,  1,  10, none",
      "DenyOnLimit,    MaxWall=10,                 1,  1,  11, QOSMaxWallDurationPerJobLimit",
      "'',             MaxWall=10,                 1,  1,  11, none",
      "denyonlimit,    MaxWall=10,                 1,  1,  11, QOSMaxWallDurationPerJobLimit",
      "'NoReserve,DenyOnLimit', MaxTRESPerJob=cpu=2, 3, 1, 5, QOSMaxCpuPerJobLimit",
      "DenyOnLimit,    MaxTRESPerJob=cpu=2,        2,  1,   5, none",
      "DenyOnLimit,    MaxTRESPerJob=node=1,       2,  2,   5, QOSMaxNodePerJobLimit",
      "DenyOnLimit,    MaxTRESPerUser=cpu=4,       5,  1,   5, QOSMaxCpuPerUserLimit",
      "DenyOnLimit,    MaxTRESPerUser=cpu=4,       4,  1,   5, none",
      "DenyOnLimit,    GrpTRES=cpu=8,              9,  2,   5, QOSGrpCpuLimit",
      "DenyOnLimit,    GrpTRES=node=1,             2,  2,   5, QOSGrpNodeLimit",
      "DenyOnLimit,    MaxJobsPerUser=0,           1,  1,   5, QOSMaxJobsPerUserLimit",
      "DenyOnLimit,    MaxJobsPerUser=1,           1,  1,   5, none",
      "DenyOnLimit,    GrpJobs=0,                  1,  1,   5, QOSGrpJobsLimit",
  })
  void aJobOverAQosLimitOnItsOwnIsDenied(String flags, String limit, int cpus, int nodes, int minutes,
      String refused) {
    JobInfo j = JobInfo.newBuilder().setQos("q").setNumCpus(cpus).setNumNodes(nodes).setTimeLimitMin(minutes).build();
    assertThat(LimitCheck.deniedOnLimit(j, qos(flags.strip(), limit.strip()))).isEqualTo(refused);
  }
}
