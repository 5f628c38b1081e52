package org.corral.cli.format;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.dataparser.Envelope;
import org.corral.protocol.dataparser.JobJson;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.corral.protocol.dataparser.JsonWriter;
import org.corral.protocol.dataparser.NoVal;
import org.corral.protocol.dataparser.NodeJson;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.PartitionInfo;

/**
 * squeue --json, sinfo --json and sdiag --json: the controller's answers in Slurm's data_parser v0.0.42 layout
 * (v0.0.42_openapi_job_info_resp; v0.0.42_openapi_nodes_resp's nodes and
 * v0.0.42_openapi_partition_resp's partitions) through the mapping slurmrestd uses
 * ({@code org.corral.protocol.dataparser}), with the meta, errors and warnings every response
 * carries. Loaded only when --json is given; no JSON library on the commands' class path.
 */
public final class JsonOutput {
  private JsonOutput() {}

  /** squeue --json; {@code nodes} give the jobs' job_resources their sockets and cores. */
  public static String jobs(List<JobInfo> jobs, List<NodeInfo> nodes, long lastUpdate, List<String> argv,
      String user, String cluster) {
    JsonObject doc = new JsonObject();
    JsonArray list = doc.putArray("jobs");
    Map<String, NodeInfo> byName = byName(nodes);
    jobs.forEach(j -> list.add(JobJson.of(j, cluster, byName::get)));
    doc.set("last_backfill", NoVal.number(lastUpdate));
    doc.set("last_update", NoVal.number(lastUpdate));
    return tail(doc, argv, user, cluster);
  }

  /** sinfo --json: the nodes and the partitions. */
  public static String nodes(List<NodeInfo> nodes, List<PartitionInfo> parts, long lastUpdate,
      List<String> argv, String user, String cluster) {
    UserDirectory users = UserDirectory.system();
    JsonObject doc = new JsonObject();
    JsonArray nodeList = doc.putArray("nodes");
    nodes.forEach(n -> nodeList.add(NodeJson.node(n,
        uid -> users.nameOf(uid).orElse(Integer.toUnsignedString(uid)))));
    Map<String, NodeInfo> byName = byName(nodes);
    JsonArray partList = doc.putArray("partitions");
    parts.forEach(p -> partList.add(NodeJson.partition(p, byName::get)));
    doc.set("last_update", NoVal.number(lastUpdate));
    return tail(doc, argv, user, cluster);
  }

  /**
   * sdiag --json: the counters as v0.0.42_openapi_diag_resp's statistics, the mapping
   * slurmrestd's GET /slurm/v0.0.42/diag uses.
   */
  public static String diag(org.corral.protocol.msg.StatsReply stats, List<String> argv, String user,
      String cluster) {
    JsonObject doc = new JsonObject();
    doc.set("statistics", org.corral.protocol.dataparser.DiagJson.of(stats));
    return tail(doc, argv, user, cluster);
  }

  /** A command's meta: its command line and user; no plugin or client address. */
  public static JsonObject meta(List<String> argv, String user, String cluster, String accountingStorage) {
    return Envelope.meta("", "", accountingStorage, "", user, "", argv, cluster);
  }

  private static String tail(JsonObject doc, List<String> argv, String user, String cluster) {
    doc.set("meta", meta(argv, user, cluster, ""));
    doc.putArray("errors");
    doc.putArray("warnings");
    return JsonWriter.pretty(doc) + "\n";
  }

  private static Map<String, NodeInfo> byName(List<NodeInfo> nodes) {
    Map<String, NodeInfo> out = new HashMap<>();
    nodes.forEach(n -> out.put(n.getName(), n));
    return out;
  }
}
