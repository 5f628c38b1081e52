package org.corral.cli.sacctmgr;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.corral.cli.Cli;
import org.corral.cli.format.ParseTime;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.sacctmgr.Table.Column;
import org.corral.protocol.msg.AcctTxn;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TxnQueryRequest;

/**
 * {@code sacctmgr show transaction [Start= End= Actor= Action= Users= Accounts= Clusters=
 * Format= WithAssoc]}: the accounting changes slurmdbd recorded, oldest first, in Slurm's columns
 * (Time, Action, Actor, Where, Info). Start defaults to the epoch and End to now, as Slurm's.
 */
final class Transactions {
  private final Cli cli;
  private final ZoneId zone;

  Transactions(Cli cli) {
    this.cli = cli;
    this.zone = cli.clock().getZone();
  }

  int show(List<String> words, Table.Style style, boolean header) throws IOException {
    long now = cli.clock().instant().getEpochSecond();
    TxnQueryRequest.Builder q = TxnQueryRequest.newBuilder();
    List<String> format = new ArrayList<>();
    for (String w : words) {
      int eq = w.indexOf('=');
      String key = (eq < 0 ? w : w.substring(0, eq)).toLowerCase(Locale.ROOT);
      List<String> values = eq < 0 ? List.of() : List.of(w.substring(eq + 1).split(","));
      if (eq < 0 && (key.equals("where") || key.equals("set") || Events.is(key, "withassoc", 5))) {
        continue;
      } else if (Events.is(key, "accounts", 2)) {
        q.addAllAccounts(values);
      } else if (Events.is(key, "actions", 4)) {
        q.addAllActions(values);
      } else if (Events.is(key, "actors", 4)) {
        q.addAllActors(values);
      } else if (Events.is(key, "clusters", 1)) {
        q.addAllClusters(values);
      } else if (Events.is(key, "end", 1) && eq > 0) {
        q.setEnd(Math.max(0, time(values.get(0), now)));
      } else if (Events.is(key, "format", 1)) {
        format.addAll(values);
      } else if (Events.is(key, "start", 1) && eq > 0) {
        q.setStart(Math.max(0, time(values.get(0), now)));
      } else if (Events.is(key, "users", 1)) {
        q.addAllUsers(values);
      } else {
        cli.err().println(" Unknown condition: " + w);
        return 1;
      }
    }
    return Table.printSelected(cli, columns(), format, List.of("time", "action", "actor", "where", "info"), () -> {
      Response r = cli.accounting().get().call(Request.newBuilder().setTxnQuery(q).build());
      if (r.getErrorCode() != 0) {
        throw new IOException(r.getErrorMessage());
      }
      return r.getTxnQuery().getTxnsList();
    }, style, header);
  }

  private long time(String v, long now) {
    try {
      return ParseTime.parse(v, now, zone);
    } catch (ParseTime.Invalid e) {
      cli.err().println(e.getMessage());
      return -1;
    }
  }

  private static Column<AcctTxn> col(String header, int width, String names, Function<AcctTxn, String> value) {
    return new Column<>(header, width, List.of(names.split(",")), value);
  }

  private List<Column<AcctTxn>> columns() {
    return List.of(
        col("Time", 19, "time,timestamp", t -> SlurmTimes.iso(t.getTime(), zone, "Unknown")),
        col("Action", 20, "action", AcctTxn::getAction),
        col("Actor", 10, "actor", AcctTxn::getActor),
        col("Where", 20, "where", AcctTxn::getWhere),
        col("Info", 20, "info", AcctTxn::getInfo));
  }
}
