package org.corral.restd;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.corral.common.SlurmError;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.msg.AcctAccount;
import org.corral.protocol.msg.AcctAssoc;
import org.corral.protocol.msg.AcctChange;
import org.corral.protocol.msg.AcctLimits;
import org.corral.protocol.msg.AcctQos;
import org.corral.protocol.msg.AcctUser;
import org.corral.protocol.msg.AssocSnapshot;
import org.corral.protocol.msg.Response;
import tools.jackson.databind.JsonNode;

/**
 * The openapi/slurmdbd changes: POST accounts, users, associations and qos (add, or modify the
 * fields given: a record that exists is read from slurmdbd's snapshot and only what the body
 * names changes), DELETE account, user and qos. Each request is one AcctUpdateRequest, all or
 * nothing, checked by slurmdbd against the caller's rights as sacctmgr's changes are.
 */
final class SlurmdbWrites {
  private final SlurmdbApi api;

  SlurmdbWrites(SlurmdbApi api) {
    this.api = api;
  }

  private static JsonNode body(Routes.Call c, String list) {
    JsonNode items = Json.object(c.body()).get(list);
    if (items == null || !items.isArray()) {
      throw new RestError(400, SlurmError.REST_FAIL_PARSING, "request body has no " + list + " array");
    }
    return items;
  }

  private static String text(JsonNode n, String path) {
    JsonNode at = n;
    for (String p : path.split("/")) {
      at = at.path(p);
    }
    return at.isMissingNode() || at.isNull() ? null : at.asString();
  }

  private static String required(JsonNode n, String field, String what) {
    String v = text(n, field);
    if (v == null || v.isBlank()) {
      throw new RestError(400, SlurmError.REST_FAIL_PARSING, what + " without " + field);
    }
    return v;
  }

  /** A v0.0.42 {set, infinite, number} (or a bare number): null when absent, -1 when INFINITE or unset. */
  private static Long number(JsonNode n, String path) {
    JsonNode at = n;
    for (String p : path.split("/")) {
      at = at.path(p);
    }
    if (at.isMissingNode() || at.isNull()) {
      return null;
    }
    if (at.isNumber()) {
      return Json.whole(at, path);
    }
    if (at.path("infinite").asBoolean(false) || !at.path("set").asBoolean(true)) {
      return -1L;
    }
    return at.path("number").isMissingNode() ? -1L : Json.whole(at.path("number"), path);
  }

  private static String tresString(JsonNode list) {
    List<String> parts = new ArrayList<>();
    for (JsonNode t : list) {
      String type = t.path("type").asString();
      String name = t.path("name").asString("");
      parts.add(type + (name.isEmpty() ? "" : "/" + name) + "=" + t.path("count").asLong()
          + (type.equals("mem") ? "M" : ""));
    }
    return String.join(",", parts);
  }

  private void apply(Routes.Call c, List<AcctChange> changes, Answer out, String source) throws IOException {
    if (changes.isEmpty()) {
      out.warning("nothing to change", source);
      return;
    }
    api.update(c, changes, out, source);
  }

  void accounts(Routes.Call c, Answer out) throws IOException {
    JsonNode items = body(c, "accounts");
    AssocSnapshot snap = api.snapshot(c, out, "slurmdb_accounts_post");
    List<AcctChange> changes = new ArrayList<>();
    for (JsonNode a : items) {
      String name = required(a, "name", "an account").toLowerCase(Locale.ROOT);
      AcctAccount.Builder b = snap.getAccountsList().stream().filter(x -> x.getName().equals(name)).findFirst()
          .map(AcctAccount::toBuilder).orElse(AcctAccount.newBuilder().setName(name));
      if (text(a, "description") != null) {
        b.setDescription(text(a, "description"));
      }
      if (text(a, "organization") != null) {
        b.setOrganization(text(a, "organization"));
      }
      changes.add(AcctChange.newBuilder().setPutAccount(b).build());
    }
    apply(c, changes, out, "slurmdb_accounts_post");
  }

  void users(Routes.Call c, Answer out) throws IOException {
    JsonNode items = body(c, "users");
    AssocSnapshot snap = api.snapshot(c, out, "slurmdb_users_post");
    List<AcctChange> changes = new ArrayList<>();
    for (JsonNode u : items) {
      String name = required(u, "name", "a user");
      AcctUser.Builder b = snap.getUsersList().stream().filter(x -> x.getName().equals(name)).findFirst()
          .map(AcctUser::toBuilder).orElse(AcctUser.newBuilder().setName(name).setAdminLevel(1));
      b.clearCoordAccounts();
      if (text(u, "default/account") != null) {
        b.setDefaultAccount(text(u, "default/account"));
      }
      JsonNode level = u.path("administrator_level");
      if (level.isArray() && !level.isEmpty()) {
        b.setAdminLevel(switch (level.get(0).asString()) {
          case "Operator" -> 2;
          case "Administrator" -> 3;
          case "None", "Not Set" -> 1;
          default -> throw new RestError(400, SlurmError.REST_FAIL_PARSING,
              "unknown administrator_level " + level.get(0).asString());
        });
      }
      changes.add(AcctChange.newBuilder().setPutUser(b).build());
    }
    apply(c, changes, out, "slurmdb_users_post");
  }

  void associations(Routes.Call c, Answer out) throws IOException {
    JsonNode items = body(c, "associations");
    AssocSnapshot snap = api.snapshot(c, out, "slurmdb_associations_post");
    String defaultCluster = snap.getClustersCount() == 1 ? snap.getClusters(0).getName() : "";
    List<AcctChange> changes = new ArrayList<>();
    for (JsonNode a : items) {
      String account = required(a, "account", "an association");
      String cluster = text(a, "cluster") == null || text(a, "cluster").isEmpty() ? defaultCluster : text(a, "cluster");
      String user = text(a, "user") == null ? "" : text(a, "user");
      String partition = text(a, "partition") == null ? "" : text(a, "partition");
      AcctAssoc.Builder b = snap.getAssocsList().stream().filter(x -> x.getCluster().equals(cluster)
              && x.getAccount().equals(account) && x.getUser().equals(user) && x.getPartition().equals(partition))
          .findFirst().map(AcctAssoc::toBuilder).orElse(AcctAssoc.newBuilder().setCluster(cluster).setAccount(account)
              .setUser(user).setPartition(partition).setParentAccount(user.isEmpty() ? "root" : ""));
      if (user.isEmpty() && text(a, "parent_account") != null && !text(a, "parent_account").isEmpty()) {
        b.setParentAccount(text(a, "parent_account"));
      }
      if (text(a, "default/qos") != null) {
        b.setDefaultQos(text(a, "default/qos"));
      }
      JsonNode qos = a.path("qos");
      if (qos.isArray()) {
        b.setQosSet(true).clearQos();
        qos.forEach(q -> b.addQos(q.asString()));
      }
      b.setLimits(limits(a, b.getLimits().toBuilder()));
      changes.add(AcctChange.newBuilder().setPutAssoc(b).build());
    }
    apply(c, changes, out, "slurmdb_associations_post");
  }

  private static AcctLimits limits(JsonNode a, AcctLimits.Builder l) {
    Long v;
    if ((v = number(a, "shares_raw")) != null) {
      if (v < 0) {
        l.clearShares();
      } else {
        l.setShares(v.intValue());
      }
    }
    if ((v = number(a, "max/jobs/per/count")) != null) {
      if (v < 0) l.clearMaxJobs(); else l.setMaxJobs(v.intValue());
    }
    if ((v = number(a, "max/jobs/per/submitted")) != null) {
      if (v < 0) l.clearMaxSubmitJobs(); else l.setMaxSubmitJobs(v.intValue());
    }
    if ((v = number(a, "max/jobs/per/wall_clock")) != null) {
      if (v < 0) l.clearMaxWallMinutes(); else l.setMaxWallMinutes(v.intValue());
    }
    if ((v = number(a, "max/jobs/active")) != null) {
      if (v < 0) l.clearGrpJobs(); else l.setGrpJobs(v.intValue());
    }
    if ((v = number(a, "max/jobs/total")) != null) {
      if (v < 0) l.clearGrpSubmitJobs(); else l.setGrpSubmitJobs(v.intValue());
    }
    if ((v = number(a, "max/per/account/wall_clock")) != null) {
      if (v < 0) l.clearGrpWallMinutes(); else l.setGrpWallMinutes(v.intValue());
    }
    if ((v = number(a, "priority")) != null) {
      if (v < 0) l.clearPriority(); else l.setPriority(v.intValue());
    }
    JsonNode grp = a.path("max").path("tres").path("total");
    if (grp.isArray()) {
      l.setGrpTres(tresString(grp));
    }
    JsonNode perJob = a.path("max").path("tres").path("per").path("job");
    if (perJob.isArray()) {
      l.setMaxTresPerJob(tresString(perJob));
    }
    return l.build();
  }

  void qos(Routes.Call c, Answer out) throws IOException {
    JsonNode items = body(c, "qos");
    AssocSnapshot snap = api.snapshot(c, out, "slurmdb_qos_post");
    List<AcctChange> changes = new ArrayList<>();
    for (JsonNode q : items) {
      String name = required(q, "name", "a QOS").toLowerCase(Locale.ROOT);
      AcctQos.Builder b = snap.getQosList().stream().filter(x -> x.getName().equals(name)).findFirst()
          .map(AcctQos::toBuilder).orElse(AcctQos.newBuilder().setName(name));
      if (text(q, "description") != null) {
        b.setDescription(text(q, "description"));
      }
      Long v;
      if ((v = number(q, "priority")) != null) {
        b.setPriority(v < 0 ? 0 : v.intValue());
      }
      JsonNode flags = q.path("flags");
      if (flags.isArray()) {
        b.clearFlags();
        flags.forEach(f -> b.addFlags(f.asString()));
      }
      if ((v = number(q, "limits/max/wall_clock/per/job")) != null) {
        if (v < 0) b.clearMaxWallMinutes(); else b.setMaxWallMinutes(v.intValue());
      }
      if ((v = number(q, "limits/max/jobs/active_jobs/per/user")) != null) {
        if (v < 0) b.clearMaxJobsPerUser(); else b.setMaxJobsPerUser(v.intValue());
      }
      if ((v = number(q, "limits/max/jobs/per/user")) != null) {
        if (v < 0) b.clearMaxSubmitJobsPerUser(); else b.setMaxSubmitJobsPerUser(v.intValue());
      }
      if ((v = number(q, "limits/max/active_jobs/count")) != null) {
        if (v < 0) b.clearGrpJobs(); else b.setGrpJobs(v.intValue());
      }
      if ((v = number(q, "limits/max/jobs/count")) != null) {
        if (v < 0) b.clearGrpSubmitJobs(); else b.setGrpSubmitJobs(v.intValue());
      }
      JsonNode t = q.path("limits").path("max").path("tres");
      if (t.path("total").isArray()) {
        b.setGrpTres(tresString(t.path("total")));
      }
      if (t.path("per").path("job").isArray()) {
        b.setMaxTresPerJob(tresString(t.path("per").path("job")));
      }
      if (t.path("per").path("user").isArray()) {
        b.setMaxTresPerUser(tresString(t.path("per").path("user")));
      }
      JsonNode factor = q.path("usage_factor");
      if (factor.path("set").asBoolean(false)) {
        b.setUsageFactor(factor.path("number").asDouble());
      }
      changes.add(AcctChange.newBuilder().setPutQos(b).build());
    }
    apply(c, changes, out, "slurmdb_qos_post");
  }

  void deleteAccount(Routes.Call c, String name, Answer out) throws IOException {
    JsonArray removed = out.body.putArray("removed_accounts");
    Response r = api.update(c, List.of(AcctChange.newBuilder().setDeleteAccount(name).build()), out,
        "slurmdb_account_delete");
    if (r.getErrorCode() == 0) {
      removed.add(name);
    }
  }

  void deleteUser(Routes.Call c, String name, Answer out) throws IOException {
    api.update(c, List.of(AcctChange.newBuilder().setDeleteUser(name).build()), out, "slurmdb_user_delete");
  }

  void deleteQos(Routes.Call c, String name, Answer out) throws IOException {
    JsonArray removed = out.body.putArray("removed_qos");
    Response r = api.update(c, List.of(AcctChange.newBuilder().setDeleteQos(name).build()), out, "slurmdb_qos_delete");
    if (r.getErrorCode() == 0) {
      removed.add(name);
    }
  }
}
