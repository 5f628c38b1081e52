package org.corral.restd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * slurmrestd's command line and environment, as Slurm's: {@code [-f slurm.conf] [-a AUTH,...]
 * [-s PLUGINS] [-d PARSERS] [-t THREADS] [-v] [-V] [HOST:PORT | unix:/PATH ...]}; with no listen
 * address on the command line, SLURMRESTD_LISTEN (comma separated); SLURMRESTD_AUTH_TYPES,
 * SLURMRESTD_OPENAPI_PLUGINS and SLURMRESTD_DATA_PARSER_PLUGINS stand for -a, -s and -d.
 */
record RestdOptions(Path conf, Set<String> authTypes, List<String> tcp, List<Path> unix, boolean verbose,
    boolean version) {

  static RestdOptions parse(List<String> args, Map<String, String> env) {
    Path conf = env.containsKey("SLURM_CONF") ? Path.of(env.get("SLURM_CONF")) : Path.of("/etc/slurm/slurm.conf");
    String auth = env.getOrDefault("SLURMRESTD_AUTH_TYPES", "rest_auth/local,rest_auth/jwt");
    String plugins = env.getOrDefault("SLURMRESTD_OPENAPI_PLUGINS", "");
    String parsers = env.getOrDefault("SLURMRESTD_DATA_PARSER_PLUGINS", "");
    List<String> listen = new ArrayList<>();
    boolean verbose = false;
    boolean version = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "-f", "-a", "-s", "-d", "-t", "-u", "-g" -> {
          if (i + 1 >= args.size()) {
            throw new IllegalArgumentException("option " + a + " needs a value");
          }
          String v = args.get(++i);
          switch (a) {
            case "-f" -> conf = Path.of(v);
            case "-a" -> auth = v;
            case "-s" -> plugins = v;
            case "-d" -> parsers = v;
            default -> { } // -t threads (virtual threads: no pool), -u/-g (run as is)
          }
        }
        case "-v", "-vv", "-vvv" -> verbose = true;
        case "-V" -> version = true;
        case "-D" -> { } // accepted for symmetry with the other daemons: slurmrestd never forks
        default -> {
          if (a.startsWith("-")) {
            throw new IllegalArgumentException("unknown option " + a);
          }
          listen.add(a);
        }
      }
    }
    if (listen.isEmpty() && env.containsKey("SLURMRESTD_LISTEN")) {
      for (String s : env.get("SLURMRESTD_LISTEN").split(",")) {
        if (!s.isBlank()) {
          listen.add(s.trim());
        }
      }
    }
    Set<String> types = new LinkedHashSet<>();
    for (String t : auth.split(",")) {
      String name = t.trim().startsWith("rest_auth/") ? t.trim() : "rest_auth/" + t.trim();
      if (!name.equals(Authenticator.JWT) && !name.equals(Authenticator.LOCAL)) {
        throw new IllegalArgumentException("unknown authentication plugin " + t.trim()
            + " (rest_auth/jwt and rest_auth/local are available)");
      }
      types.add(name);
    }
    if (!plugins.isBlank() && !plugins.contains("slurmctld") && !plugins.equalsIgnoreCase("list")) {
      throw new IllegalArgumentException("only openapi/slurmctld is available (asked for " + plugins + ")");
    }
    if (!parsers.isBlank() && !parsers.contains("v0.0.42") && !parsers.contains("v0.0.41")) {
      throw new IllegalArgumentException(
          "only data_parser/v0.0.42 and data_parser/v0.0.41 are available (asked for " + parsers + ")");
    }
    List<String> tcp = new ArrayList<>();
    List<Path> unix = new ArrayList<>();
    for (String l : listen) {
      if (l.startsWith("unix:")) {
        unix.add(Path.of(l.substring(5)));
      } else {
        tcp.add(l);
      }
    }
    if (!version && tcp.isEmpty() && unix.isEmpty()) {
      throw new IllegalArgumentException("no listen address: give HOST:PORT or unix:/PATH, or set SLURMRESTD_LISTEN");
    }
    return new RestdOptions(conf, types, tcp, unix, verbose, version);
  }

  /** "host:port", ":port" or "[v6]:port". */
  static java.net.InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("listen address " + hostPort + " has no :PORT");
    }
    String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
    int port = Integer.parseInt(hostPort.substring(colon + 1));
    return host.isEmpty() ? new java.net.InetSocketAddress(port) : new java.net.InetSocketAddress(host, port);
  }
}
