package org.corral.protocol.dataparser;

import java.util.List;
import org.corral.common.Version;

/**
 * What every data_parser v0.0.42 response carries besides its data: {@code meta}
 * (v0.0.42_openapi_meta), {@code errors} (v0.0.42_openapi_error) and {@code warnings}
 * (v0.0.42_openapi_warning), as slurmrestd and the commands' --json write them.
 */
public final class Envelope {
  public static final String DATA_PARSER = "data_parser/v0.0.42";

  private Envelope() {}

  /**
   * @param pluginType "openapi/slurmctld" or "openapi/slurmdbd" for slurmrestd, "" for a command
   * @param pluginName the plugin's name ("Slurm OpenAPI slurmctld"), "" for a command
   * @param accountingStorage "accounting_storage/slurmdbd" where the data came from slurmdbd
   * @param source the client: "[addr]:port" for slurmrestd, "" for a command
   * @param command the command line (a command's argv; empty for slurmrestd)
   */
  public static JsonObject meta(String pluginType, String pluginName, String accountingStorage, String source,
      String user, String group, List<String> command, String cluster) {
    JsonObject meta = new JsonObject();
    meta.putObject("plugin").put("type", pluginType).put("name", pluginName).put("data_parser", DATA_PARSER)
        .put("accounting_storage", accountingStorage);
    meta.putObject("client").put("source", source).put("user", user).put("group", group);
    meta.set("command", command);
    JsonObject slurm = meta.putObject("slurm");
    String[] v = Version.NUMBER.split("\\.");
    slurm.putObject("version").put("major", v[0]).put("micro", v.length > 2 ? v[2] : "0")
        .put("minor", v.length > 1 ? v[1] : "0");
    slurm.put("release", Version.NUMBER);
    slurm.put("cluster", cluster);
    return meta;
  }

  /** One of Slurm's errors. */
  public static JsonObject error(String description, int number, String error, String source) {
    return new JsonObject().put("description", description).put("error_number", number).put("error", error)
        .put("source", source);
  }

  public static JsonObject warning(String description, String source) {
    return new JsonObject().put("description", description).put("source", source);
  }
}
