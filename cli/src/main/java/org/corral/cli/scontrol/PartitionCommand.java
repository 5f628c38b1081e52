package org.corral.cli.scontrol;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.common.config.PartitionSettings;
import org.corral.protocol.msg.DeletePartitionRequest;
import org.corral.protocol.msg.PartitionUpdateRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code scontrol create PartitionName=X KEY=VALUE...}, {@code update PartitionName=X KEY=VALUE...}
 * and {@code delete PartitionName=X}: the words checked with Slurm 22.05's messages (see
 * {@link PartitionSettings}), the rest decided by the controller.
 */
final class PartitionCommand {
  private PartitionCommand() {}

  /** Whether a word names a partition (PartitionName= or Partition=). */
  static boolean names(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return w.startsWith("partitionname=") || w.startsWith("partition=");
  }

  static int create(List<String> words, Cli cli) throws IOException {
    return send(true, words, cli);
  }

  static int update(List<String> words, Cli cli) throws IOException {
    return send(false, words, cli);
  }

  private static int send(boolean create, List<String> words, Cli cli) throws IOException {
    PartitionSettings.Parsed parsed;
    try {
      parsed = PartitionSettings.parse(words);
    } catch (PartitionSettings.Refused e) {
      e.lines().forEach(l -> cli.err().println("scontrol: error: " + l));
      if (e.aborted()) {
        cli.err().println();
        cli.err().println("scontrol: error: Request aborted");
      }
      if (!create) { // Slurm 22.05 then reports the update's (unset) errno
        cli.err().println("slurm_update error: " + SlurmError.SUCCESS.message());
      }
      return 1;
    }
    parsed.warnings().forEach(l -> cli.err().println("scontrol: error: " + l));
    if (!create && parsed.fields().size() <= 1) {
      if (!parsed.warnings().isEmpty()) {
        return 0; // what the reference does with nothing left to change
      }
      cli.err().println("scontrol: error: No changes specified");
      return 1;
    }
    Response r = cli.controller().get().call(Request.newBuilder().setUpdatePartition(
        PartitionUpdateRequest.newBuilder().setCreate(create).putAllFields(parsed.fields())).build());
    if (r.getErrorCode() != 0) {
      String text = SlurmError.messageFor(r.getErrorCode());
      cli.err().println(create ? "Error creating the partition: " + text : "slurm_update error: " + text);
      return 1;
    }
    return 0;
  }

  /** {@code delete PartitionName=X}, {@code delete Partition=X} or {@code delete partition X}. */
  static int delete(List<String> rest, Cli cli) throws IOException {
    String first = rest.get(0);
    int eq = first.indexOf('=');
    String name = eq >= 0 ? first.substring(eq + 1) : rest.size() > 1 ? rest.get(1) : "";
    if (name.isEmpty()) {
      cli.err().println("scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'");
      return 1;
    }
    Response r = cli.controller().get().call(Request.newBuilder().setDeletePartition(
        DeletePartitionRequest.newBuilder().setName(name)).build());
    if (r.getErrorCode() != 0) {
      cli.err().println("delete_partition " + first + ": " + SlurmError.messageFor(r.getErrorCode()));
      return 1;
    }
    return 0;
  }
}
