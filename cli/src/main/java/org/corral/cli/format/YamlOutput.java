package org.corral.cli.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.protocol.dataparser.JsonArray;
import org.corral.protocol.dataparser.JsonObject;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * A data_parser document as YAML, the way Slurm 23.02+ prints {@code --yaml} (libyaml's block
 * style: "---" first, "..." last, sequences at their key's indentation, empty strings as '').
 * Only {@code --yaml} loads this class, so SnakeYAML stays off the commands' start-up path.
 */
public final class YamlOutput {
  private YamlOutput() {}

  public static String of(JsonObject doc) {
    DumperOptions opts = new DumperOptions();
    opts.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    opts.setExplicitStart(true);
    opts.setExplicitEnd(true);
    opts.setSplitLines(false);
    return new Yaml(opts).dump(plain(doc));
  }

  /** The tree as maps and lists (what SnakeYAML writes), keeping the fields' order. */
  private static Object plain(Object v) {
    if (v instanceof JsonObject o) {
      Map<String, Object> m = new LinkedHashMap<>();
      o.fields().forEach((k, x) -> m.put(k, plain(x)));
      return m;
    }
    if (v instanceof JsonArray a) {
      List<Object> l = new ArrayList<>();
      a.items().forEach(x -> l.add(plain(x)));
      return l;
    }
    return v;
  }
}
