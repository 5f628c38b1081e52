package org.corral.protocol.configless;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.Credentials;
import org.corral.protocol.TcpChannel;
import org.corral.protocol.msg.ConfigFile;
import org.corral.protocol.msg.ConfigFilesRequest;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;

/**
 * {@code --conf-server host[:port]} (slurmd, sackd): asks the controller for its configuration
 * files, signed with the cluster key as daemons' requests are.
 */
public final class ConfigFetch {
  /** Slurm's default SlurmctldPort, when {@code --conf-server} names none. */
  public static final int DEFAULT_PORT = 6817;

  private ConfigFetch() {}

  /** A {@code host[:port]} argument (several may be given comma-separated: the first that answers wins). */
  public record Server(String host, int port) {
    public static List<Server> parseList(String arg) {
      List<Server> out = new java.util.ArrayList<>();
      for (String one : arg.split(",")) {
        String s = one.trim();
        int colon = s.lastIndexOf(':');
        if (s.isEmpty()) {
          continue;
        }
        try {
          out.add(colon < 0 ? new Server(s, DEFAULT_PORT)
              : new Server(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1))));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("invalid --conf-server " + arg);
        }
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("invalid --conf-server " + arg);
      }
      return out;
    }
  }

  /** The files from the first server that gives them; the last failure when none does. */
  public static List<ConfigFile> fetch(List<Server> servers, Credentials creds, Duration timeout) throws IOException {
    IOException last = null;
    for (Server s : servers) {
      try {
        Response r = new TcpChannel(s.host(), s.port(), creds, timeout).call(Request.newBuilder().setConfigFiles(ConfigFilesRequest.getDefaultInstance()).build());
        if (r.getErrorCode() != 0) {
          throw new IOException(s.host() + ":" + s.port() + ": " + (r.getErrorMessage().isEmpty()
              ? SlurmError.messageFor(r.getErrorCode()) : r.getErrorMessage()));
        }
        return r.getConfigFiles().getFilesList();
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }
}
