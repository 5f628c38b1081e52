package org.corral.protocol.plugin;

import java.util.Set;

/**
 * An option a plugin adds to the commands, as SPANK's struct spank_option: {@code --NAME} or
 * {@code --NAME=ARG}.
 *
 * @param name the long option's name, without dashes
 * @param argument the value's name in --help ("PATH"), or null when the option takes no value
 * @param usage one line for --help
 * @param commands which of "sbatch", "srun", "salloc" take it
 */
public record PluginOption(String name, String argument, String usage, Set<String> commands) {

  /** The three allocating commands. */
  public static final Set<String> ALL_COMMANDS = Set.of("sbatch", "srun", "salloc");

  public PluginOption {
    if (name == null || !name.matches("[a-z][a-z0-9-]*")) {
      throw new IllegalArgumentException("invalid plugin option name: " + name);
    }
    commands = Set.copyOf(commands);
  }

  public PluginOption(String name, String argument, String usage) {
    this(name, argument, usage, ALL_COMMANDS);
  }

  public boolean takesValue() {
    return argument != null;
  }
}
