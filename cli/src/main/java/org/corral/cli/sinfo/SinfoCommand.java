package org.corral.cli.sinfo;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.format.Column;
import org.corral.protocol.NodeStates;
import org.corral.cli.format.SlurmTimes;
import org.corral.cli.format.Table;
import org.corral.cli.format.UserDirectory;
import org.corral.cli.getopt.Getopt;
import org.corral.cli.submit.HelpText;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.NodeInfo;
import org.corral.protocol.msg.NodeInfoRequest;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.msg.PartitionInfoRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/** sinfo: nodes and partitions, grouped and formatted as Slurm's sinfo does. */
public final class SinfoCommand implements CliCommand {
  private final UserDirectory users;

  public SinfoCommand() {
    this(UserDirectory.system());
  }

  /** An sinfo naming users through the given directory. */
  public SinfoCommand(UserDirectory users) {
    this.users = users;
  }

  @Override
  public int run(List<String> args, Cli cli) {
    SinfoOptions opts;
    try {
      opts = SinfoOptions.parse(args, cli.env());
    } catch (Getopt.GetoptException e) {
      cli.err().println(cli.program() + ": " + e.getMessage());
      cli.err().println("Try \"sinfo --help\" for more information");
      return 1;
    } catch (IllegalArgumentException e) {
      for (String line : e.getMessage().split("\n")) {
        cli.error("error: " + line);
      }
      return 1;
    }
    if (opts.info() != null) { // --usage, --help or --version: printed, nothing else done
      return HelpText.info(cli, SinfoCommand.class, opts.info(), null);
    }
    if (opts.iterate() > 0) {
      return org.corral.cli.format.Iteration.repeat(opts.iterate(), cli, () -> list(opts, args, cli));
    }
    return list(opts, args, cli);
  }

  /** One listing. */
  private int list(SinfoOptions opts, List<String> args, Cli cli) {
    if (opts.reservations()) {
      return reservations(cli);
    }
    List<PartitionInfo> partitions;
    List<NodeInfo> nodes;
    try {
      var channel = cli.controller().get();
      Response pr = channel.call(Request.newBuilder()
          .setPartitionInfo(PartitionInfoRequest.newBuilder().setAll(opts.all())).build());
      Response nr = channel.call(Request.newBuilder()
          .setNodeInfo(NodeInfoRequest.getDefaultInstance()).build());
      int code = pr.getErrorCode() != 0 ? pr.getErrorCode() : nr.getErrorCode();
      if (code == SlurmError.ACCESS_DENIED.code()) { // PrivateData=partitions or nodes, in Slurm 22.05's words
        cli.err().println((pr.getErrorCode() != 0 ? "slurm_load_partitions: " : "slurm_load_node: ")
            + SlurmError.ACCESS_DENIED.message());
        return 1;
      }
      if (code != 0) {
        cli.error("error: " + SlurmError.messageFor(code));
        return 1;
      }
      partitions = pr.getPartitionInfo().getPartitionsList().stream()
          .filter(p -> opts.partitions() == null || opts.partitions().contains(p.getName()))
          .toList();
      nodes = nr.getNodeInfo().getNodesList();
      if (opts.json()) {
        List<String> argv = new java.util.ArrayList<>(List.of(cli.program()));
        argv.addAll(args);
        cli.out().print(org.corral.cli.format.JsonOutput.nodes(nodes, partitions,
            nr.getNodeInfo().getLastUpdate(), argv, cli.env().getOrDefault("USER", ""),
            String.join(",", org.corral.cli.format.LocalCluster.of(cli.env()))));
        return 0;
      }
    } catch (IOException e) {
      cli.err().println("slurm_load_partitions: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
    String format = opts.format() != null ? opts.format() : builtInFormat(opts, partitions, nodes);
    List<Column<NodeGroup>> printed = new java.util.ArrayList<>();
    Table<NodeGroup> table;
    try {
      table = opts.longFormat() != null
          ? Table.ofLong(opts.longFormat(), NodeColumns.ALL, 20,
              f -> cli.error("error: Invalid job format specification: " + f))
          : Table.ofPercent(format, NodeColumns.ALL,
              c -> cli.err().println("Invalid node format specification: " + c));
    } catch (IllegalArgumentException e) {
      cli.err().println("Invalid node format specification: " + e.getMessage());
      return 1;
    }
    for (Column<NodeGroup> c : NodeColumns.ALL) {
      if (table.hasLetter(c.letter())) {
        printed.add(c);
      }
    }
    boolean byPartition = table.hasLetter('P') || table.hasLetter('R');
    NodeGrouper grouper = new NodeGrouper(printed, opts.exact(), cli.clock().getZone(), users);
    List<NodeGroup> groups = grouper.group(partitions, nodes, selection(opts),
        byPartition && !opts.reasons(), opts.nodeOriented(), opts.summarize());
    if (opts.reasons()) {
      groups = groups.stream().filter(g -> !g.empty() && !g.first().getReason().isEmpty()).toList();
    }
    if (opts.header()) {
      if (opts.dateLine() || opts.iterate() > 0) { // -l's date line, and each -i listing's
        cli.out().println(SlurmTimes.ctime(cli.clock().instant(), cli.clock().getZone()));
      }
      cli.out().println(table.header());
    }
    for (NodeGroup g : groups) {
      cli.out().println(table.row(g));
    }
    return 0;
  }

  private static Predicate<NodeInfo> selection(SinfoOptions opts) {
    Set<String> names = opts.nodes() == null ? null : new HashSet<>(opts.nodes());
    return n -> (names == null || names.contains(n.getName()))
        && (opts.states() == null || opts.states().stream().anyMatch(w -> NodeStates.matches(n, w)))
        && (!opts.reasons() || n.getDrain() || NodeStates.unavailable(n))
        && (!opts.dead() || n.getNotResponding()) && (!opts.responding() || !n.getNotResponding());
  }

  /** Slurm's formats for each listing; the partition and node columns fit the longest name. */
  private static String builtInFormat(SinfoOptions o, List<PartitionInfo> parts,
      List<NodeInfo> nodes) {
    int pw = Math.max(9, parts.stream()
        .mapToInt(p -> p.getName().length() + (p.getIsDefault() ? 1 : 0)).max().orElse(0));
    int nw = Math.max(9, nodes.stream().mapToInt(n -> n.getName().length()).max().orElse(0));
    if (o.reasons()) {
      return o.dateLine() ? "%20E %12U %19H %6t %N" : "%20E %9u %19H %N";
    }
    if (o.summarize()) {
      return "%" + pw + "P %.5a %.10l %.16F %N";
    }
    if (o.nodeOriented()) {
      return o.dateLine()
          ? "%" + nw + "N %.6D %." + pw + "P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E"
          : "%" + nw + "N %.6D %." + pw + "P %6t";
    }
    return o.dateLine()
        ? "%" + pw + "P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N"
        : "%" + pw + "P %.5a %.10l %.6D %.6t %N";
  }

  private static int reservations(Cli cli) {
    try {
      Response r = cli.controller().get().call(Request.newBuilder()
          .setReservationInfo(org.corral.protocol.msg.ReservationInfoRequest.getDefaultInstance()).build());
      if (r.getErrorCode() != 0) {
        cli.error("error: " + SlurmError.messageFor(r.getErrorCode()));
        return 1;
      }
      ReservationTable.print(r.getReservationInfo().getReservationsList(), cli.clock().instant().getEpochSecond(),
          cli.clock().getZone(), cli.out());
      return 0;
    } catch (java.io.IOException e) {
      cli.error("error: " + SlurmError.CONTROLLER_DOWN.message());
      return 1;
    }
  }
}
