package org.corral.protocol.dataparser;

import java.util.List;
import org.corral.common.Hostlist;
import org.corral.common.ReservationFlags;
import org.corral.protocol.msg.ReservationInfo;

/** A reservation as data_parser v0.0.42 writes it (v0.0.42_reservation_info). */
public final class ReservationJson {
  private ReservationJson() {}

  public static JsonObject reservation(ReservationInfo r) {
    JsonObject o = new JsonObject();
    o.put("accounts", String.join(",", r.getAccountsList()));
    o.put("burst_buffer", "");
    o.put("core_count", r.getCoreCnt());
    o.set("core_specializations", JsonArray.of(List.of()));
    o.set("end_time", NoVal.number(r.getEndTime()));
    o.put("features", "");
    o.set("flags", JsonArray.of(r.getFlagsList()));
    o.put("groups", "");
    o.put("licenses", "");
    o.put("max_start_delay", 0);
    o.put("name", r.getName());
    o.put("node_count", r.getNodeNamesCount());
    o.put("node_list", Hostlist.compress(r.getNodeNamesList()));
    o.put("partition", r.getPartition());
    o.putObject("purge_completed").set("time", r.getFlagsList().contains(ReservationFlags.PURGE_COMP)
        ? NoVal.number(r.getPurgeCompTime()) : NoVal.unset());
    o.set("start_time", NoVal.number(r.getStartTime()));
    o.set("watts", NoVal.unset());
    o.put("tres", "cpu=" + r.getCoreCnt());
    o.put("users", String.join(",", r.getUsersList()));
    return o;
  }
}
