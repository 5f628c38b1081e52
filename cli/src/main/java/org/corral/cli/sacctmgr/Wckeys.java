package org.corral.cli.sacctmgr;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.corral.cli.sacctmgr.Table.Column;
import org.corral.protocol.msg.AcctWckey;

/**
 * {@code sacctmgr show wckey [Names= Users= Clusters= IDs= WithDeleted Format=]}: the workload
 * characterization keys slurmdbd keeps, by cluster, name and user. Slurm's sacctmgr adds and
 * removes them only through users (add user WCKeys=, delete user WCKeys=).
 */
final class Wckeys {
  private Wckeys() {}

  /** A condition show wckey does not take. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  static final String DEFAULTS = "wckey,cluster,user";

  static List<Column<AcctWckey>> columns() {
    return List.of(
        new Column<>("WCKey", 10, List.of("wckey", "name"), AcctWckey::getName),
        new Column<>("Cluster", 10, List.of("cluster"), AcctWckey::getCluster),
        new Column<>("User", 10, List.of("user"), AcctWckey::getUser),
        new Column<>("ID", 6, List.of("id"), w -> Integer.toString(w.getId())));
  }

  /** The wckeys {@code a}'s conditions select, in slurmdbd's order (cluster, name, user). */
  static List<AcctWckey> select(Args a, View v) throws Refused {
    for (Args.Opt o : a.where) {
      if (!Set.of("names", "wckeys", "cluster", "user", "id").contains(o.key())) {
        throw new Refused(" Unknown condition: " + o.key() + o.op() + o.value());
      }
    }
    List<String> names = a.cond("names").stream().filter(n -> !n.toLowerCase().startsWith("withdel")).toList();
    List<String> wanted = new java.util.ArrayList<>(names);
    wanted.addAll(a.cond("wckeys"));
    List<String> clusters = a.cond("cluster");
    List<String> users = a.cond("user");
    List<String> ids = a.cond("id");
    return v.snap.getWckeysList().stream()
        .filter(w -> wanted.isEmpty() || wanted.contains(w.getName()))
        .filter(w -> clusters.isEmpty() || clusters.stream().anyMatch(c -> c.equalsIgnoreCase(w.getCluster())))
        .filter(w -> users.isEmpty() || users.stream().anyMatch(u -> u.equalsIgnoreCase(w.getUser())))
        .filter(w -> ids.isEmpty() || ids.contains(Integer.toString(w.getId())))
        .sorted(Comparator.comparing(AcctWckey::getCluster).thenComparing(AcctWckey::getName)
            .thenComparing(AcctWckey::getUser))
        .toList();
  }
}
