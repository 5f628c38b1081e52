package org.corral.restd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.corral.common.config.SlurmConfig;
import tools.jackson.databind.node.ArrayNode;

/**
 * {@code FixtureRecorder SLURM_CONF RESTD_URL OUT_DIR}: runs {@link FixtureScenario} against a
 * fresh cluster of fixtures/slurm.conf (restd/fixtures/record.sh starts one with `corral up`) and
 * writes what it exchanged under OUT_DIR: pairs.json (the requests, statuses and content types,
 * in order) and each answer's masked body in VERSION/NAME.json.
 */
public final class FixtureRecorder {
  private FixtureRecorder() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: FixtureRecorder SLURM_CONF RESTD_URL OUT_DIR");
      System.exit(2);
    }
    Path out = Path.of(args[2]);
    List<FixtureExchange> all = new ArrayList<>();
    new FixtureScenario(args[1], SlurmConfig.load(Path.of(args[0])), all::add).run();
    ArrayNode index = Json.MAPPER.createArrayNode();
    for (FixtureExchange e : all) {
      Path body = out.resolve(e.file());
      Files.createDirectories(body.getParent());
      Files.writeString(body, e.maskedBody());
      index.add(e.entry());
    }
    Files.writeString(out.resolve("pairs.json"), Json.MAPPER.writerWithDefaultPrettyPrinter()
        .writeValueAsString(index) + "\n");
    System.out.println(all.size() + " exchanges recorded under " + out);
  }
}
