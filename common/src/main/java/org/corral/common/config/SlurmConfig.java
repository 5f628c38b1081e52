package org.corral.common.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.corral.common.Hostlist;

/**
 * A parsed slurm.conf, as slurm.conf(5) defines it: case-insensitive keys, several pairs per line,
 * NodeName/PartitionName/NodeSet/DownNodes record lines with DEFAULT records, Include files.
 * Every typed value is checked when the file is loaded, so a bad value fails {@link #load}, not a
 * later getter. A repeated top-level key keeps its latest value (with a warning), except
 * SlurmctldHost, whose lines list the primary controller and its backups.
 */
public final class SlurmConfig {
  public static final Path DEFAULT_PATH = Path.of("/etc/slurm/slurm.conf");

  private final Path path;
  private final Map<String, ConfLine> byKey = new LinkedHashMap<>(); // lower-case key -> its (last) line
  private final List<String> controllerLines = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  /** Top-level keys to check against the known ones, with the place each warning takes among {@link #warnings}. */
  private final List<PendingKeyCheck> keyChecks = new ArrayList<>();
  // The record lines (NodeName, PartitionName, NodeSet, DownNodes), built into nodes and
  // partitions when loaded, or on first use for the commands (see loadShared).
  private final List<ConfLine> nodeLines = new ArrayList<>();
  private final List<ConfLine> partitionLines = new ArrayList<>();
  private final List<ConfLine> nodeSetLines = new ArrayList<>();
  private final List<ConfLine> downLines = new ArrayList<>();
  private final String preemptMode;
  /** The typed value of each key of {@link SlurmConfKeys} the file sets, by {@link ConfKey#index}. */
  private final Object[] values = new Object[SlurmConfKeys.SLOTS];
  /** A bad value the commands did not need (not strict), by {@link ConfKey#index}. */
  private final ConfigException[] errors = new ConfigException[SlurmConfKeys.SLOTS];
  /**
   * Which keys' values have been read. The daemons read all at once; the commands each key when
   * first asked, so that they never build the whole table of keys.
   */
  private final boolean[] read = new boolean[SlurmConfKeys.SLOTS];
  private volatile Records records;

  private final String controllerHost;
  private final String controllerAddr;
  private final int slurmctldPort;
  private final int slurmdPort;
  private final int slurmdTimeout;
  private final int killWait;
  private final int minJobAge;
  private final long firstJobId;
  private final long maxJobId;
  private final OptionalLong defMemPerCpu;
  private final OptionalLong defMemPerNode;
  private final boolean jobRequeue;
  private final int returnToService;
  private final SchedulingConfig scheduling;
  private final AccountingConfig accounting;

  /** Nodes and partitions, as the record lines build them. */
  private record Records(List<NodeConfig> nodes, Map<String, NodeConfig> nodesByName,
      List<PartitionConfig> partitions) {}

  /**
   * @param strict the daemons: every value is checked now, the first bad one fails the load. The
   *     commands (not strict) check only what they always need (ports, timeouts, scheduling and
   *     accounting settings); another key with a bad value reads as its default.
   */
  private SlurmConfig(Path path, List<ConfLine> lines, boolean strict) throws ConfigException {
    this.path = path;
    for (ConfLine line : lines) {
      switch (line.firstKey().toLowerCase(Locale.ROOT)) {
        case "nodename" -> {
          NodeLines.checkKeys(line, warnings);
          nodeLines.add(line);
        }
        case "partitionname" -> {
          PartitionLines.checkKeys(line, warnings);
          partitionLines.add(line);
        }
        case "nodeset" -> {
          NodeSets.checkKeys(line, warnings);
          nodeSetLines.add(line);
        }
        case "downnodes" -> downLines.add(line);
        case "frontendname" -> { } // front-end nodes (Cray/BlueGene era) are not supported; accepted silently
        default -> topLevel(line);
      }
    }
    if (strict) {
      parseValues();
    }
    ConfLine ctld = controllerLines.isEmpty() ? null : byKey.get("slurmctldhost");
    String first = controllerLines.isEmpty() ? get("ControlMachine").orElse(null) : controllerLines.get(0);
    if (first == null) {
      warnings.add(path.getFileName() + ": no SlurmctldHost, using localhost");
      first = "localhost";
    }
    String firstHost = first;
    ControllerHost h = ControllerHost.parse(first).orElseThrow(() -> ctld != null
        ? ctld.invalid("SlurmctldHost", firstHost) : byKey.get("controlmachine").invalid("ControlMachine", firstHost));
    controllerHost = h.host();
    // ControlAddr goes with the old ControlMachine only; SlurmctldHost carries its own address.
    controllerAddr = controllerLines.isEmpty() && !first.contains("(") ? get("ControlAddr").orElse(h.addr()) : h.addr();

    slurmctldPort = require(SlurmConfKeys.SLURMCTLD_PORT).intValue();
    slurmdPort = require(SlurmConfKeys.SLURMD_PORT).intValue();
    slurmdTimeout = seconds(SlurmConfKeys.SLURMD_TIMEOUT);
    killWait = seconds(SlurmConfKeys.KILL_WAIT);
    minJobAge = seconds(SlurmConfKeys.MIN_JOB_AGE);
    firstJobId = require(SlurmConfKeys.FIRST_JOB_ID);
    maxJobId = require(SlurmConfKeys.MAX_JOB_ID);
    defMemPerCpu = megabytes(SlurmConfKeys.DEF_MEM_PER_CPU);
    defMemPerNode = megabytes(SlurmConfKeys.DEF_MEM_PER_NODE);
    jobRequeue = require(SlurmConfKeys.JOB_REQUEUE);
    returnToService = require(SlurmConfKeys.RETURN_TO_SERVICE).intValue();
    if (returnToService > 2) {
      throw byKey.get("returntoservice").invalid("ReturnToService", get("ReturnToService").get());
    }
    scheduling = SchedulingConfig.read(byKey::get);
    accounting = AccountingConfig.of(this);
    preemptMode = byKey.containsKey("preemptmode")
        ? PartitionLines.preemptMode(byKey.get("preemptmode"), get("PreemptMode").get()) : "OFF";
    if (strict) {
      records = buildRecords();
    }
  }

  private Records buildRecords() throws ConfigException {
    NodeLines nodeBuilder = new NodeLines(slurmdPort);
    for (ConfLine line : nodeLines) {
      nodeBuilder.add(line);
    }
    List<NodeConfig> built = new ArrayList<>(nodeBuilder.nodes());
    Map<String, NodeConfig> nodesByName = new LinkedHashMap<>();
    built.forEach(n -> nodesByName.put(n.name(), n));
    for (ConfLine line : downLines) {
      applyDownNodes(line, built, nodesByName);
    }
    List<NodeConfig> nodes = Collections.unmodifiableList(built);
    Map<String, List<String>> nodeSets = NodeSets.resolve(nodeSetLines, nodes);
    PartitionLines partBuilder = new PartitionLines(nodes, nodeSets, preemptMode);
    for (ConfLine line : partitionLines) {
      partBuilder.add(line);
    }
    return new Records(nodes, Collections.unmodifiableMap(nodesByName), List.copyOf(partBuilder.partitions()));
  }

  /** The nodes and partitions, built now if the file was read without them (loadShared). */
  private Records records() {
    Records r = records;
    if (r == null) {
      synchronized (this) {
        r = records;
        if (r == null) {
          try {
            r = buildRecords();
          } catch (ConfigException e) {
            throw new IllegalStateException(e.getMessage(), e);
          }
          records = r;
        }
      }
    }
    return r;
  }

  private void topLevel(ConfLine line) throws ConfigException {
    for (ConfPair p : line.pairs()) {
      String k = p.key().toLowerCase(Locale.ROOT);
      ConfLine single = new ConfLine(line.file(), line.line(), List.of(p));
      // Checked only when warnings() is asked for (the daemons): the list of known keys costs a
      // user command a visible share of its start-up, and commands print no warnings.
      keyChecks.add(new PendingKeyCheck(warnings.size(), line, p.key()));
      if (k.equals("slurmctldhost")) {
        if (ControllerHost.parse(p.value()).isEmpty()) {
          throw single.invalid(p.key(), p.value());
        }
        controllerLines.add(p.value());
        byKey.putIfAbsent(k, single);
        continue;
      }
      if (byKey.containsKey(k)) {
        warnings.add(where(line) + ": " + p.key() + " specified more than once, latest value used");
        byKey.remove(k); // keep file order of the latest occurrence
      }
      byKey.put(k, single);
    }
  }

  private static void applyDownNodes(ConfLine line, List<NodeConfig> built, Map<String, NodeConfig> nodesByName)
      throws ConfigException {
    String state = line.get("State").map(String::trim).orElse("DOWN");
    ConfValues.oneOf(line, "State", state, "DOWN", "DRAIN", "FAIL", "FAILING", "FUTURE");
    String reason = line.get("Reason").orElse("");
    List<String> names;
    try {
      names = Hostlist.expand(line.firstValue());
    } catch (IllegalArgumentException e) {
      throw line.invalid("DownNodes", line.firstValue());
    }
    for (String name : names) {
      NodeConfig n = nodesByName.get(name);
      if (n == null) {
        throw line.error("DownNodes", "invalid value for DownNodes: unknown node " + name);
      }
      NodeConfig down = new NodeConfig(n.name(), n.hostname(), n.addr(), n.port(), n.cpus(), n.boards(), n.sockets(),
          n.coresPerSocket(), n.threadsPerCore(), n.realMemoryMb(), n.tmpDiskMb(), n.weight(), n.features(), n.gres(),
          state.toUpperCase(Locale.ROOT), reason);
      built.set(built.indexOf(n), down);
      nodesByName.put(name, down);
    }
  }

  /** Reads every value the file sets, in file order: the first bad one fails (the daemons). */
  private void parseValues() throws ConfigException {
    for (ConfLine line : byKey.values()) {
      ConfKey<?> key = SlurmConfKeys.find(line.firstKey());
      if (key != null) {
        read(key);
        if (errors[key.index()] != null) {
          throw errors[key.index()];
        }
      }
    }
  }

  /** Reads a key's value from its line, once; a bad one waits in {@link #errors}. */
  private void read(ConfKey<?> key) {
    int i = key.index();
    if (read[i]) {
      return;
    }
    ConfLine line = byKey.get(key.name().toLowerCase(Locale.ROOT));
    if (line != null) {
      try {
        values[i] = key.type().parse(key.name(), line.firstValue());
      } catch (IllegalArgumentException e) {
        String reason = e.getMessage() == null || e.getMessage().isEmpty() ? "" : " (" + e.getMessage() + ")";
        errors[i] = line.error(key.name(), "invalid value for " + key.name() + ": '" + line.firstValue() + "'" + reason);
      }
    }
    read[i] = true;
  }

  /** The value of a key the commands need too: a bad one fails the load in every mode. */
  <T> T require(ConfKey<T> key) throws ConfigException {
    read(key);
    if (errors[key.index()] != null) {
      throw errors[key.index()];
    }
    return value(key);
  }

  private int seconds(ConfKey<Long> key) throws ConfigException {
    long v = require(key);
    if (v > Integer.MAX_VALUE) {
      throw byKey.get(key.name().toLowerCase(Locale.ROOT)).invalid(key.name(), get(key.name()).get());
    }
    return (int) v;
  }

  private OptionalLong megabytes(ConfKey<Long> key) throws ConfigException {
    Long v = require(key);
    return v == null || v == ConfType.UNLIMITED_MB ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** "slurm.conf line 7", as warnings name a place. */
  static String where(ConfLine line) {
    return line.file().getFileName() + " line " + line.line();
  }

  /** Reads a slurm.conf and the files it includes. */
  public static SlurmConfig load(Path file) throws ConfigException {
    return new SlurmConfig(file, ConfReader.read(file), true);
  }

  /** The last file {@link #loadShared} read, with what identified its version and its includes'. */
  private record Loaded(Path file, List<Path> files, List<Object> versions, SlurmConfig config) {}

  private static volatile Loaded lastShared;

  /**
   * As {@link #load}, for the user commands: a command that reads the same unchanged file twice
   * (to find the controller, then the cluster's name) parses it once, and the nodes and
   * partitions are built only when first asked for. Most commands need only top-level values,
   * and expanding every NodeName line is a visible share of their start-up (more on a large
   * cluster). A bad record line then fails the first call that needs nodes or partitions, with
   * an IllegalStateException carrying load's message, instead of this one. The file and the
   * files it included must all be unchanged (the command server keeps this across commands).
   */
  public static SlurmConfig loadShared(Path file) throws ConfigException {
    Loaded last = lastShared;
    if (last != null && last.file().equals(file) && last.versions().equals(versions(last.files()))) {
      return last.config();
    }
    Object version = version(file);
    if (version == null) {
      return load(file); // reports the problem as load does
    }
    List<ConfLine> lines = ConfReader.read(file);
    java.util.Set<Path> files = new java.util.LinkedHashSet<>();
    files.add(file);
    lines.forEach(l -> files.add(l.file()));
    List<Path> read = List.copyOf(files);
    List<Object> versions = versions(read);
    SlurmConfig config = new SlurmConfig(file, lines, false);
    if (String.valueOf(version).equals(versions.get(0))) { // not changed while it was read
      lastShared = new Loaded(file, read, versions, config);
    }
    return config;
  }

  /** A file's identity and version (inode, mtime, size); null when it cannot be read. */
  private static Object version(Path file) {
    try {
      var attrs = java.nio.file.Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
      return List.of(String.valueOf(attrs.fileKey()), attrs.lastModifiedTime(), attrs.size());
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static List<Object> versions(List<Path> files) {
    List<Object> v = new ArrayList<>(files.size());
    for (Path f : files) {
      v.add(String.valueOf(version(f)));
    }
    return v;
  }

  /** Parses slurm.conf text; {@code nominalPath} names it in messages and anchors relative includes. */
  public static SlurmConfig parse(String text, Path nominalPath) throws ConfigException {
    return new SlurmConfig(nominalPath, ConfReader.parse(text, nominalPath), true);
  }

  /** {@code $SLURM_CONF} when set and not empty, else /etc/slurm/slurm.conf. */
  public static Path defaultPath(Map<String, String> env) {
    String p = env.get("SLURM_CONF");
    return p == null || p.isBlank() ? DEFAULT_PATH : Path.of(p);
  }

  /** Expands %n (node name), %h (host name) and %% in a per-node path such as SlurmdSpoolDir. */
  public static String expandNodeTemplate(String template, String nodeName, String hostName) {
    StringBuilder sb = new StringBuilder(template.length() + 16);
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '%' && i + 1 < template.length()) {
        char n = template.charAt(i + 1);
        String rep = switch (n) {
          case 'n' -> nodeName;
          case 'h' -> hostName;
          case '%' -> "%";
          default -> null;
        };
        if (rep != null) {
          sb.append(rep);
          i++;
          continue;
        }
      }
      sb.append(c);
    }
    return sb.toString();
  }

  public Path path() {
    return path;
  }

  /** A top-level value, key matched case-insensitively (SlurmctldHost: the primary's). */
  public Optional<String> get(String key) {
    ConfLine line = byKey.get(key.toLowerCase(Locale.ROOT));
    return line == null ? Optional.empty() : Optional.of(line.firstValue());
  }

  /**
   * The typed value of a key: as the file sets it, else the key's default (null when it has none).
   * For the commands, a key whose value was bad reads as its default.
   */
  @SuppressWarnings("unchecked")
  public <T> T value(ConfKey<T> key) {
    read(key);
    Object v = values[key.index()];
    return v != null ? (T) v : key.defaultValue();
  }

  /** Whether the file sets the key (with a good value). */
  public boolean isSet(ConfKey<?> key) {
    read(key);
    return values[key.index()] != null;
  }

  /** The value of a text key, when set and not empty or "(null)". */
  public Optional<String> text(ConfKey<String> key) {
    String v = value(key);
    return v == null || v.isEmpty() || v.equals("(null)") ? Optional.empty() : Optional.of(v);
  }

  /** How scontrol show config prints the key's value (its unit included). */
  public String shown(ConfKey<?> key) {
    return isSet(key) ? printed(key) : key.unsetText();
  }

  private <T> String printed(ConfKey<T> key) {
    return key.type().print(value(key));
  }

  /** Top-level keys as spelled in the file, to their values, in file order. */
  public Map<String, String> entries() {
    Map<String, String> out = new LinkedHashMap<>();
    byKey.values().forEach(l -> out.put(l.firstKey(), l.firstValue()));
    return Collections.unmodifiableMap(out);
  }

  /** Problems that do not stop loading, e.g. "slurm.conf line 7: unknown key Foo". */
  public List<String> warnings() {
    List<String> all = new ArrayList<>(warnings.size() + keyChecks.size());
    int next = 0;
    for (PendingKeyCheck c : keyChecks) {
      all.addAll(warnings.subList(next, c.position()));
      next = c.position();
      if (!SlurmConfKeys.isKnown(c.key())) {
        all.add(where(c.line()) + ": unknown key " + c.key());
      }
    }
    all.addAll(warnings.subList(next, warnings.size()));
    List<String> inert = new ArrayList<>();
    for (ConfKey<?> k : SlurmConfKeys.all()) {
      if (k.support() == ConfKey.Support.NOT_IMPLEMENTED && isSet(k) && !printed(k).equals(k.unsetText())
          && !printed(k).equals(k.corralValue())) {
        inert.add(k.name());
      }
    }
    if (!inert.isEmpty()) {
      all.add(path.getFileName() + ": read but not implemented by Corral, without effect: " + String.join(", ", inert));
    }
    return Collections.unmodifiableList(all);
  }

  /** An "unknown key" warning for {@code key} on {@code line}, at {@code position} among the warnings, unless the key is known. */
  private record PendingKeyCheck(int position, ConfLine line, String key) {}

  public String clusterName() {
    return text(SlurmConfKeys.CLUSTER_NAME).orElse("");
  }

  /** Every SlurmctldHost value in order (primary first), as written. */
  public List<String> slurmctldHosts() {
    return List.copyOf(controllerLines);
  }

  public String controllerHost() {
    return controllerHost;
  }

  /**
   * Every controller, primary first: each SlurmctldHost line parsed (lines that do not parse are
   * left out; the primary's was checked at load), or the one controller ControlMachine names.
   */
  public List<ControllerHost> controllers() {
    if (controllerLines.size() < 2) {
      return List.of(new ControllerHost(controllerHost, controllerAddr));
    }
    return controllerLines.stream().map(ControllerHost::parse).flatMap(java.util.Optional::stream).toList();
  }

  /** Whether two or more controllers are configured: they then replicate their state (a Raft group). */
  public boolean replicatedControllers() {
    return controllerLines.size() >= 2;
  }

  public String controllerAddr() {
    return controllerAddr;
  }

  public int slurmctldPort() {
    return slurmctldPort;
  }

  public int slurmdPort() {
    return slurmdPort;
  }

  public String slurmUser() {
    return value(SlurmConfKeys.SLURM_USER);
  }

  public Path stateSaveLocation() {
    return Path.of(value(SlurmConfKeys.STATE_SAVE_LOCATION));
  }

  /** May hold %n/%h: see {@link #expandNodeTemplate}. */
  public String slurmdSpoolDir() {
    return value(SlurmConfKeys.SLURMD_SPOOL_DIR);
  }

  public String slurmctldPidFile() {
    return value(SlurmConfKeys.SLURMCTLD_PID_FILE);
  }

  /** May hold %n/%h. */
  public String slurmdPidFile() {
    return value(SlurmConfKeys.SLURMD_PID_FILE);
  }

  public Optional<String> slurmctldLogFile() {
    return text(SlurmConfKeys.SLURMCTLD_LOG_FILE);
  }

  /** May hold %n/%h. */
  public Optional<String> slurmdLogFile() {
    return text(SlurmConfKeys.SLURMD_LOG_FILE);
  }

  /** Seconds. */
  public int slurmdTimeout() {
    return slurmdTimeout;
  }

  /** Seconds. */
  public int killWait() {
    return killWait;
  }

  /** Seconds. */
  public int minJobAge() {
    return minJobAge;
  }

  public long firstJobId() {
    return firstJobId;
  }

  public long maxJobId() {
    return maxJobId;
  }

  /** MB. */
  public OptionalLong defMemPerCpu() {
    return defMemPerCpu;
  }

  /** MB. */
  public OptionalLong defMemPerNode() {
    return defMemPerNode;
  }

  public boolean jobRequeue() {
    return jobRequeue;
  }

  /**
   * Licenses=foo:4,bar: the cluster's licenses and their counts, in the order given.
   *
   * @throws IllegalArgumentException when Licenses= is malformed
   */
  public Map<String, Integer> licenses() {
    return org.corral.common.Licenses.parse(text(SlurmConfKeys.LICENSES).orElse(""));
  }

  /** Priority plugin, weights and scheduler parameters. */
  public SchedulingConfig scheduling() {
    return scheduling;
  }

  /** Where slurmdbd is and what the controller enforces. */
  public AccountingConfig accounting() {
    return accounting;
  }

  public int returnToService() {
    return returnToService;
  }

  public String authType() {
    return value(SlurmConfKeys.AUTH_TYPE);
  }

  /** Every node, expanded from hostlists, in configuration order. */
  public List<NodeConfig> nodes() {
    return records().nodes();
  }

  public Optional<NodeConfig> node(String name) {
    return Optional.ofNullable(records().nodesByName().get(name));
  }

  public List<PartitionConfig> partitions() {
    return records().partitions();
  }

  public Optional<PartitionConfig> partition(String name) {
    return partitions().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The partition with Default=YES (the last one, if several claim it), else none. */
  public Optional<PartitionConfig> defaultPartition() {
    PartitionConfig found = null;
    for (PartitionConfig p : partitions()) {
      if (p.isDefault()) {
        found = p;
      }
    }
    return Optional.ofNullable(found);
  }
}
