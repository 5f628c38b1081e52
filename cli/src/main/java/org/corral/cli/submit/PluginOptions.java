package org.corral.cli.submit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.plugin.CorralPlugin;
import org.corral.protocol.plugin.PluginException;
import org.corral.protocol.plugin.PluginOption;
import org.corral.protocol.plugin.PluginStack;

/**
 * The options plugins add to sbatch, srun or salloc (plugstack.conf), and the values given: they
 * join the command's getopt table under keys "plugin:NAME", each plugin checks its values as
 * they are applied, and they travel in the job's or step's plugin_options to the nodes.
 */
public final class PluginOptions {

  private static final String KEY_PREFIX = "plugin:";

  private final String program;
  private final PluginStack stack;
  private final Map<String, String> values = new LinkedHashMap<>();

  public PluginOptions(String program, PluginStack stack) {
    this.program = program;
    this.stack = stack;
  }

  /** No plugins: what a command uses when slurm.conf cannot be read. */
  public static PluginOptions none(String program) {
    return new PluginOptions(program, PluginStack.EMPTY);
  }

  /**
   * The stack slurm.conf (through SLURM_CONF) names; none when slurm.conf cannot be read (the
   * command fails later on that, with its own message).
   *
   * @throws CommandFailure when plugstack.conf is wrong, as srun says of a SPANK stack it cannot load
   */
  public static PluginOptions load(String program, Map<String, String> env) throws CommandFailure {
    Path conf = SlurmConfig.defaultPath(env);
    SlurmConfig c;
    try {
      c = SlurmConfig.loadShared(conf);
    } catch (Exception e) {
      return none(program);
    }
    try {
      return new PluginOptions(program, PluginStack.forConfig(conf, c.get("PlugStackConfig").orElse(null),
          c.get("PluginDir").orElse(null)));
    } catch (PluginException e) {
      throw CommandFailure.error(program, "spank: " + e.getMessage());
    }
  }

  /** The getopt rows of the plugins' options for this command. */
  public List<LongOpt> longOptions() {
    List<LongOpt> opts = new ArrayList<>();
    for (PluginOption o : stack.options(program)) {
      opts.add(new LongOpt(o.name(), o.takesValue() ? Arg.REQUIRED : Arg.NONE, KEY_PREFIX + o.name()));
    }
    return opts;
  }

  /** The command's own long options followed by the plugins'. */
  public List<LongOpt> withOwn(List<LongOpt> own) {
    if (stack.isEmpty()) {
      return own;
    }
    List<LongOpt> all = new ArrayList<>(own);
    all.addAll(longOptions());
    return all;
  }

  /**
   * Applies one option if it is a plugin's: the plugin checks it (its refusal is "PROGRAM: error:
   * MESSAGE", exit 255 as an invalid option) and a later value replaces an earlier one.
   *
   * @return false when the key is not a plugin option's
   */
  public boolean apply(String key, String value) throws CommandFailure {
    if (!key.startsWith(KEY_PREFIX)) {
      return false;
    }
    String name = key.substring(KEY_PREFIX.length());
    CorralPlugin owner = stack.ownerOf(name).orElseThrow();
    try {
      owner.checkOption(name, value);
    } catch (PluginException e) {
      throw CommandFailure.invalid(program, e.getMessage());
    }
    values.put(name, value == null ? "" : value);
    return true;
  }

  /** The values given, by option name ("" for an option without a value). */
  public Map<String, String> values() {
    return values;
  }

  /** --help lines for the plugins' options, as srun prints SPANK's after its own. */
  public List<String> helpLines() {
    List<String> lines = new ArrayList<>();
    for (PluginOption o : stack.options(program)) {
      String head = "      --" + o.name() + (o.takesValue() ? "=" + o.argument() : "");
      lines.add(head + " ".repeat(Math.max(1, 31 - head.length())) + "[" + stack.ownerOf(o.name()).orElseThrow().name()
          + "] " + o.usage());
    }
    return lines;
  }
}
