package org.corral.protocol.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.corral.protocol.UserAuth;
import org.corral.protocol.UserDirectory;

/**
 * What a daemon that users reach over TCP (slurmctld, slurmdbd) accepts from users of other
 * hosts, by AuthType: MUNGE credentials (auth/munge, Slurm's default) or credentials minted by
 * the users' hosts' sackd or slurmd with the cluster key (auth/slurm).
 */
public final class UserAuths {
  private UserAuths() {}

  /**
   * @param conf the daemon's configuration file (slurm.key and slurm.jwks lie beside it)
   * @param self the daemon's name, as credentials sent to it must say
   * @return the daemon's user authentication, or null when AuthType has none for other hosts
   */
  public static UserAuth forDaemon(String authType, String authInfo, Path conf, int slurmUid,
      String self, Clock clock) throws IOException {
    if ("auth/slurm".equals(authType)) {
      SackKeys keys = SackKeys.load(conf, System.getenv(), slurmUid);
      return new SackAuth(new SackCredentials(keys, clock, ttlFrom(authInfo,
          SackCredentials.DEFAULT_TTL)), self, UserDirectory.system(), processId("uid"),
          processId("gid"));
    }
    return MungeAuth.forAuthType(authType, authInfo, clock, self);
  }

  /** The credential TTL AuthInfo's {@code ttl=N} names (seconds), else {@code fallback}. */
  public static Duration ttlFrom(String authInfo, Duration fallback) {
    if (authInfo != null) {
      for (String part : authInfo.split(",")) {
        String p = part.trim();
        if (p.regionMatches(true, 0, "ttl=", 0, 4)) {
          try {
            return Duration.ofSeconds(Math.max(1, Integer.parseInt(p.substring(4))));
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("AuthInfo: ttl=" + p.substring(4)
                + " is not a number of seconds");
          }
        }
      }
    }
    return fallback;
  }

  /** This process's uid or gid, as the kernel says. */
  public static int processId(String which) throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:" + which);
  }

  /** A kiosk for a host's sack socket, with this host's keys and AuthInfo's TTL. */
  public static SackKiosk kiosk(Path conf, Map<String, String> env, int slurmUid, String authInfo,
      String issuer, Clock clock) throws IOException {
    return new SackKiosk(new SackCredentials(SackKeys.load(conf, env, slurmUid), clock,
        ttlFrom(authInfo, SackCredentials.DEFAULT_TTL)), issuer);
  }
}
