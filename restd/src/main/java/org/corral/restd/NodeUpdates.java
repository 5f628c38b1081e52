package org.corral.restd;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.DeleteNodeRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.UpdateNodeRequest;
import tools.jackson.databind.JsonNode;

/**
 * POST /node/{node_name}: a v0.0.42_update_node_msg applied as {@code scontrol update
 * NodeName= State= Reason= Features= ActiveFeatures= Weight=} (administrators only, checked by
 * the controller); DELETE
 * /node/{node_name}: {@code scontrol delete NodeName=} (Slurm 23.02+).
 */
final class NodeUpdates {
  /** The states scontrol update takes (v0.0.42_node_states names). */
  private static final Set<String> STATES = Set.of("DRAIN", "DOWN", "RESUME", "UNDRAIN", "IDLE");
  private static final long NODE_WEIGHT_MAX = 4294967280L; // as scontrol takes Weight=
  private static final Set<String> KNOWN = Set.of("state", "reason", "reason_uid", "name", "features",
      "features_act", "weight");

  private NodeUpdates() {}

  static void update(SlurmApi api, Routes.Call c, Matcher m, Answer out) throws IOException {
    String name = Json.pathPart(m.group(1));
    JsonNode msg = Json.object(c.body());
    UpdateNodeRequest.Builder req = UpdateNodeRequest.newBuilder().setNodeNames(name);
    JsonNode state = msg.get("state");
    if (state != null && !state.isNull()) {
      if (!state.isArray() || state.size() != 1 || !STATES.contains(state.get(0).asString().toUpperCase(Locale.ROOT))) {
        throw new RestError(400, SlurmError.INVALID_NODE_STATE,
            "state must be one of " + String.join(", ", STATES.stream().sorted().toList()));
      }
      req.setState(state.get(0).asString().toUpperCase(Locale.ROOT));
    }
    JsonNode reason = msg.get("reason");
    if (reason != null && !reason.isNull()) {
      req.setReason(reason.asString()).setHasReason(true);
    }
    JsonNode features = msg.get("features");
    if (features != null && !features.isNull()) {
      req.setFeatures(Json.csv(features));
    }
    JsonNode active = msg.get("features_act");
    if (active != null && !active.isNull()) {
      req.setActiveFeatures(Json.csv(active));
    }
    JsonNode weight = msg.get("weight");
    if (weight != null && !weight.isNull() && !(weight.isObject() && !weight.path("set").asBoolean(true))) {
      long w = JobSubmission.number(msg, "weight", 1);
      if (w < 0 || w > NODE_WEIGHT_MAX) {
        throw new RestError(400, SlurmError.REST_FAIL_PARSING, "weight must be 0 to " + NODE_WEIGHT_MAX);
      }
      req.setWeight((int) w);
    }
    msg.propertyNames().stream().filter(n -> !KNOWN.contains(n)).sorted()
        .forEach(n -> out.warning(n + " cannot be updated by Corral and was ignored", "_update_node"));
    if (req.getState().isEmpty() && !req.getHasReason() && !req.hasFeatures() && !req.hasActiveFeatures()
        && !req.hasWeight()) {
      return; // nothing Corral can change was asked
    }
    api.call(c, Request.newBuilder().setUpdateNode(req).build(), out, "_update_node");
  }

  static void delete(SlurmApi api, Routes.Call c, Matcher m, Answer out) throws IOException {
    api.call(c, Request.newBuilder().setDeleteNode(DeleteNodeRequest.newBuilder()
        .setNodeNames(Json.pathPart(m.group(1)))).build(), out, "_delete_node");
  }
}
