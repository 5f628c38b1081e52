package org.corral.protocol.dataparser;

import java.util.List;
import org.corral.protocol.msg.ShareRow;

/**
 * sshare's rows as data_parser v0.0.42's v0.0.42_shares_resp_msg: one
 * v0.0.42_assoc_shares_obj_wrap per association (a user's named after the user, an account's
 * after the account) and the shares of the top level as total_shares.
 */
public final class SharesJson {
  private SharesJson() {}

  public static JsonObject of(List<ShareRow> rows) {
    JsonObject msg = new JsonObject();
    JsonArray list = msg.putArray("shares");
    long total = 0;
    for (ShareRow r : rows) {
      list.add(row(r));
      if (r.getParent().equals("root") && r.getUser().isEmpty() && r.hasRawShares()) {
        total += Integer.toUnsignedLong(r.getRawShares());
      }
    }
    msg.put("total_shares", total);
    return msg;
  }

  private static JsonObject row(ShareRow r) {
    boolean user = !r.getUser().isEmpty();
    JsonObject o = new JsonObject();
    o.put("id", r.getAssocId());
    o.put("cluster", r.getCluster());
    o.put("name", user ? r.getUser() : r.getAccount());
    o.put("parent", r.getParent());
    o.put("partition", r.getPartition());
    o.set("shares_normalized", NoVal.number(r.getNormShares()));
    o.set("shares", r.hasRawShares() ? NoVal.number(Integer.toUnsignedLong(r.getRawShares())) : NoVal.unset());
    JsonObject tres = o.putObject("tres");
    tres.set("run_seconds", tresList(r.getTresRunMins(), 60));
    tres.set("group_minutes", tresList(r.getGrpTresMins(), 1));
    tres.putArray("usage").addObject().put("name", "cpu").put("value", r.getRawUsage());
    o.set("effective_usage", NoVal.number(r.getEffectiveUsage()));
    o.set("usage_normalized", r.hasNormUsage() ? NoVal.number(r.getNormUsage()) : NoVal.unset());
    o.put("usage", (long) r.getRawUsage());
    JsonObject fs = o.putObject("fairshare");
    fs.set("factor", r.hasFairshare() ? NoVal.number(r.getFairshare()) : NoVal.unset());
    fs.set("level", !r.hasLevelFs() ? NoVal.unset()
        : Double.isInfinite(r.getLevelFs()) ? NoVal.infinite() : NoVal.number(r.getLevelFs()));
    o.set("type", List.of(user ? "USER" : "ASSOCIATION"));
    return o;
  }

  /** "cpu=10,mem=20" (sshare's TRES text) as [{name, value}], each value times {@code scale}. */
  private static JsonArray tresList(String text, long scale) {
    JsonArray out = new JsonArray();
    for (String item : text.split(",")) {
      int eq = item.indexOf('=');
      if (eq > 0 && item.substring(eq + 1).matches("[0-9]{1,18}")) {
        out.addObject().put("name", item.substring(0, eq))
            .set("value", NoVal.number(Long.parseLong(item.substring(eq + 1)) * scale));
      }
    }
    return out;
  }
}
