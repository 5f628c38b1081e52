package org.corral.protocol.dataparser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.corral.protocol.msg.GresAlloc;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.NodeAllocation;
import org.corral.protocol.msg.NodeInfo;
import org.junit.jupiter.api.Test;

/** job_info's job_resources and gres_detail from a job's per-node allocation and the nodes' layout. */
class JobResourcesJsonTest {
  // 2 sockets x 2 cores x 2 threads: CPUs 0-1 are socket 0 core 0, 6-7 socket 1 core 1
  private static final NodeInfo SMT = NodeInfo.newBuilder().setName("a1").setCpus(8).setSockets(2)
      .setCoresPerSocket(2).setThreadsPerCore(2).build();

  private static JobInfo running(NodeAllocation... alloc) {
    return JobInfo.newBuilder().setJobId(7).setState(JobState.RUNNING).setNodes("a[1-2]").setNumCpus(6)
        .addAllAllocation(List.of(alloc)).build();
  }

  /** The status of every core, socket by socket: "s.c=ALLOCATED". */
  private static List<String> cores(JsonObject node) {
    List<String> out = new ArrayList<>();
    for (Object s : ((JsonArray) node.get("sockets")).items()) {
      JsonObject socket = (JsonObject) s;
      for (Object c : ((JsonArray) socket.get("cores")).items()) {
        JsonObject core = (JsonObject) c;
        out.add(socket.get("index") + "." + core.get("index") + "="
            + ((JsonArray) core.get("status")).items().get(0));
      }
    }
    return out;
  }

  @Test
  void mapsCpuIdsToTheirSocketAndCore() {
    JobInfo j = running(NodeAllocation.newBuilder().setNode("a1").setCpus(4).setMemMb(400).setCpuIds("0-1,7").build(),
        NodeAllocation.newBuilder().setNode("a2").setCpus(2).setMemMb(200).setCpuIds("2-3").build());
    JsonObject res = JobResourcesJson.of(j, Map.of("a1", SMT)::get);

    JsonObject nodes = (JsonObject) res.get("nodes");
    assertThat(nodes.get("count")).isEqualTo(2L);
    assertThat(nodes.get("list")).isEqualTo("a[1-2]");
    assertThat(res.get("cpus")).isEqualTo(6L);
    List<Object> alloc = ((JsonArray) nodes.get("allocation")).items();
    JsonObject a1 = (JsonObject) alloc.get(0);
    assertThat(a1.get("name")).isEqualTo("a1");
    assertThat(((JsonObject) a1.get("cpus")).get("count")).isEqualTo(4L);
    assertThat(((JsonObject) a1.get("memory")).get("allocated")).isEqualTo(400L);
    assertThat(cores(a1)).containsExactly("0.0=ALLOCATED", "0.1=UNALLOCATED", "1.0=UNALLOCATED", "1.1=ALLOCATED");
    // a node whose layout is unknown: one socket, one core per CPU up to the highest given
    JsonObject a2 = (JsonObject) alloc.get(1);
    assertThat(a2.get("index")).isEqualTo(1L);
    assertThat(cores(a2)).containsExactly("0.0=UNALLOCATED", "0.1=UNALLOCATED", "0.2=ALLOCATED", "0.3=ALLOCATED");
  }

  @Test
  void pendingJobsHaveNone() {
    JobInfo pending = JobInfo.newBuilder().setJobId(8).setState(JobState.PENDING).build();
    assertThat(JobResourcesJson.of(pending, name -> null)).isNull();
    assertThat(JobJson.of(pending, "c", name -> null).get("job_resources")).isNull();
  }

  @Test
  void gresDetailListsEachNodesGres() {
    JobInfo j = running(NodeAllocation.newBuilder().setNode("a1").setCpus(1).setCpuIds("0")
        .addGres(GresAlloc.newBuilder().setName("gpu").setType("tesla").addIndices(1).addIndices(0)).build());
    JsonObject o = JobJson.of(j, "c", Map.of("a1", SMT)::get);
    assertThat(((JsonArray) o.get("gres_detail")).items()).containsExactly("gpu:tesla:2(IDX:0-1)");
    assertThat(o.get("job_resources")).isNotNull();
  }
}
