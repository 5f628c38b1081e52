package org.corral.protocol.plugin;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The plugins a cluster enables, read from plugstack.conf as Slurm reads its SPANK stack: one
 * plugin a line, {@code required|optional NAME [ARGUMENTS...]}, '#' comments. NAME is the
 * plugin's {@link CorralPlugin#name}, or a path whose file name gives it: {@code spank_pyxis.so}
 * and {@code pyxis.jar} both name "pyxis", so a Pyxis site's line works unchanged. Plugins are
 * found with ServiceLoader among Corral's own classes and the jars in PluginDir (and a jar the
 * line names). A required plugin that cannot be found or initialised is an error naming the file
 * and line; an optional one is skipped. Without a plugstack.conf the stack is empty and nothing
 * is scanned.
 */
public final class PluginStack {

  public static final PluginStack EMPTY = new PluginStack(List.of());

  private final List<CorralPlugin> plugins;

  public PluginStack(List<CorralPlugin> plugins) {
    this.plugins = List.copyOf(plugins);
  }

  public List<CorralPlugin> plugins() {
    return plugins;
  }

  public boolean isEmpty() {
    return plugins.isEmpty();
  }

  /**
   * The stack a slurm.conf implies: its PlugStackConfig, else plugstack.conf beside it.
   *
   * @param plugStackConfig slurm.conf's PlugStackConfig, or null
   * @param pluginDir slurm.conf's PluginDir (colon-separated), or null
   */
  public static PluginStack forConfig(Path slurmConf, String plugStackConfig, String pluginDir) throws PluginException {
    Path dir = slurmConf.toAbsolutePath().getParent();
    Path file = plugStackConfig != null && !plugStackConfig.isBlank() ? dir.resolve(plugStackConfig.strip())
        : dir.resolve("plugstack.conf");
    if (!Files.isRegularFile(file)) {
      return EMPTY;
    }
    return load(file, pluginDir);
  }

  /** Reads one plugstack.conf. */
  public static PluginStack load(Path file, String pluginDir) throws PluginException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new PluginException(file + ": cannot read: " + e.getMessage(), e);
    }
    List<Path> jars = new ArrayList<>(jarsIn(pluginDir));
    record Wanted(int line, boolean required, String name, List<String> args) {}
    List<Wanted> wanted = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String[] words = (hash >= 0 ? line.substring(0, hash) : line).strip().split("\\s+");
      if (words.length == 0 || words[0].isEmpty() || words[0].equals("include")) {
        continue; // include: other SPANK stacks are Slurm's, not read here
      }
      if (words.length < 2 || !(words[0].equals("required") || words[0].equals("optional"))) {
        throw new PluginException(file + " line " + (i + 1) + ": expected \"required|optional NAME [ARGS...]\": "
            + line.strip());
      }
      if (words[1].endsWith(".jar")) {
        jars.add(file.getParent().resolve(words[1]));
      }
      wanted.add(new Wanted(i + 1, words[0].equals("required"), nameOf(words[1]),
          List.of(words).subList(2, words.length)));
    }
    if (wanted.isEmpty()) {
      return EMPTY;
    }
    Map<String, CorralPlugin> found = discover(jars);
    List<CorralPlugin> plugins = new ArrayList<>();
    for (Wanted w : wanted) {
      CorralPlugin p = found.get(w.name());
      String where = file + " line " + w.line() + ": ";
      if (p == null) {
        if (w.required()) {
          throw new PluginException(where + "plugin " + w.name() + " not found (looked in Corral and in "
              + (jars.isEmpty() ? "no jars" : jars) + ")");
        }
        continue;
      }
      try {
        p.init(w.args());
      } catch (PluginException | RuntimeException e) {
        if (w.required()) {
          throw new PluginException(where + "plugin " + w.name() + " failed to start: " + e.getMessage(), e);
        }
        continue;
      }
      plugins.add(p);
    }
    return new PluginStack(plugins);
  }

  /** "spank_pyxis.so", "/usr/lib/slurm/spank_pyxis.so", "pyxis.jar" and "pyxis" all name "pyxis". */
  static String nameOf(String word) {
    String name = word.substring(word.lastIndexOf('/') + 1);
    for (String suffix : List.of(".so", ".jar")) {
      if (name.endsWith(suffix)) {
        name = name.substring(0, name.length() - suffix.length());
      }
    }
    return name.startsWith("spank_") ? name.substring("spank_".length()) : name;
  }

  private static List<Path> jarsIn(String pluginDir) {
    List<Path> jars = new ArrayList<>();
    if (pluginDir == null) {
      return jars;
    }
    for (String d : pluginDir.split(":")) {
      Path dir = Path.of(d.isBlank() ? "." : d);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
      } catch (IOException e) {
        // an unreadable PluginDir holds no plugins for us
      }
    }
    return jars;
  }

  private static Map<String, CorralPlugin> discover(List<Path> jars) throws PluginException {
    ClassLoader loader = PluginStack.class.getClassLoader();
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars) {
      try {
        urls.add(jar.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new PluginException("bad plugin jar path: " + jar, e);
      }
    }
    if (!urls.isEmpty()) {
      loader = new URLClassLoader(urls.toArray(URL[]::new), loader);
    }
    Map<String, CorralPlugin> found = new LinkedHashMap<>();
    try {
      for (CorralPlugin p : ServiceLoader.load(CorralPlugin.class, loader)) {
        found.putIfAbsent(p.name(), p);
      }
    } catch (ServiceConfigurationError e) {
      throw new PluginException("cannot load a plugin: " + e.getMessage(), e);
    }
    return found;
  }

  /** The options the plugins add to one command ("sbatch", "srun", "salloc"), in stack order. */
  public List<PluginOption> options(String command) {
    List<PluginOption> options = new ArrayList<>();
    for (CorralPlugin p : plugins) {
      for (PluginOption o : p.options()) {
        if (o.commands().contains(command)) {
          options.add(o);
        }
      }
    }
    return options;
  }

  /** The plugin that added an option. */
  public Optional<CorralPlugin> ownerOf(String option) {
    for (CorralPlugin p : plugins) {
      for (PluginOption o : p.options()) {
        if (o.name().equals(option)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /** Every plugin's submit filter in stack order; the first refusal stops the submission. */
  public void filterSubmit(JobDescriptor job, SubmitContext context) throws SubmitRefusal {
    for (CorralPlugin p : plugins) {
      p.filterSubmit(job, context);
    }
  }

  /** Every plugin's task hook in stack order. */
  public void beforeTask(TaskLaunch task) throws PluginException {
    for (CorralPlugin p : plugins) {
      p.beforeTask(task);
    }
  }

  /** Every plugin's end hook, in reverse order; one plugin's failure does not keep the others from theirs. */
  public void afterTask(TaskLaunch task, int waitStatus) {
    for (int i = plugins.size() - 1; i >= 0; i--) {
      try {
        plugins.get(i).afterTask(task, waitStatus);
      } catch (RuntimeException e) {
        System.getLogger("plugins").log(System.Logger.Level.WARNING,
            "plugin " + plugins.get(i).name() + ": afterTask failed: " + e);
      }
    }
  }
}
