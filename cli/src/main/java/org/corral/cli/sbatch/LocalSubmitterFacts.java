package org.corral.cli.sbatch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.corral.cli.Caller;
import org.corral.common.TextFiles;

/**
 * {@link SubmitterFacts} of this process, read from Linux's /proc ({@link TextFiles}, and no regex:
 * every sbatch reads these on start-up).
 */
public final class LocalSubmitterFacts implements SubmitterFacts {

  /** Slurm's name for each limit, by the row /proc/self/limits gives it. */
  private static final List<String[]> LIMITS = List.of(
      new String[] {"Max cpu time", "CPU"},
      new String[] {"Max file size", "FSIZE"},
      new String[] {"Max data size", "DATA"},
      new String[] {"Max stack size", "STACK"},
      new String[] {"Max core file size", "CORE"},
      new String[] {"Max resident set", "RSS"},
      new String[] {"Max processes", "NPROC"},
      new String[] {"Max open files", "NOFILE"},
      new String[] {"Max locked memory", "MEMLOCK"},
      new String[] {"Max address space", "AS"});

  /** RLIM_INFINITY as an unsigned 64-bit number, how Slurm writes "unlimited". */
  private static final String UNLIMITED = "18446744073709551615";

  private final Path proc;
  private final Path cwd;
  private final long pid;

  public LocalSubmitterFacts() {
    this(Caller.thisProcess());
  }

  /** The facts of the given caller, read from its /proc directory. */
  public LocalSubmitterFacts(Caller caller) {
    this(caller.procDir(), caller.cwd(), caller.pid());
  }

  /** Reads the given /proc/PID directory instead of this process's (for tests). */
  LocalSubmitterFacts(Path procDir) {
    this(procDir, Path.of(System.getProperty("user.dir")).toAbsolutePath(), ProcessHandle.current().pid());
  }

  private LocalSubmitterFacts(Path procDir, Path cwd, long pid) {
    this.proc = procDir;
    this.cwd = cwd;
    this.pid = pid;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public String hostname() {
    try {
      String name = TextFiles.read(Path.of("/proc/sys/kernel/hostname")).strip();
      if (!name.isEmpty()) {
        return name;
      }
    } catch (IOException e) {
      // Not Linux: fall through to the resolver.
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  /**
   * PWD when it names a directory (the caller's view, also right when this JVM serves a client
   * started elsewhere), else the caller's directory.
   */
  @Override
  public Path currentDirectory(Map<String, String> env) {
    String pwd = env.get("PWD");
    if (pwd != null && pwd.startsWith("/") && Files.isDirectory(Path.of(pwd))) {
      return Path.of(pwd);
    }
    return cwd;
  }

  @Override
  public Map<String, String> processVariables() {
    Map<String, String> vars = new LinkedHashMap<>();
    readLimits(vars);
    String nice = niceValue();
    if (nice != null) {
      vars.put("SLURM_PRIO_PROCESS", nice);
    }
    String umask = umask();
    if (umask != null) {
      vars.put("SLURM_UMASK", umask);
    }
    return vars;
  }

  private void readLimits(Map<String, String> vars) {
    List<String> rows;
    try {
      rows = TextFiles.lines(TextFiles.read(proc.resolve("limits")));
    } catch (IOException e) {
      return;
    }
    for (String[] limit : LIMITS) {
      for (String row : rows) {
        if (row.startsWith(limit[0] + " ")) {
          String soft = firstWord(row.substring(limit[0].length()).strip());
          vars.put("SLURM_RLIMIT_" + limit[1], soft.equals("unlimited") ? UNLIMITED : soft);
        }
      }
    }
  }

  /** Field 19 of /proc/PID/stat, counted after the parenthesised command name. */
  private String niceValue() {
    return statField(16);
  }

  /** Field 6 of /proc/PID/stat. */
  @Override
  public int sessionId() {
    try {
      return Integer.parseInt(statField(3));
    } catch (NumberFormatException | NullPointerException e) {
      return 0;
    }
  }

  /** A field of /proc/PID/stat, counted from the one after the parenthesised command name. */
  private String statField(int index) {
    try {
      String stat = TextFiles.read(proc.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return fields[index];
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The text up to its first space or tab. */
  private static String firstWord(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return s.substring(0, i);
      }
    }
    return s;
  }

  private String umask() {
    return org.corral.cli.ProcessFacts.umask(proc);
  }
}
