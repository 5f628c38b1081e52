package org.corral.restd;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides who a request comes from, as Slurm's rest_auth plugins do: rest_auth/jwt reads a token
 * from X-SLURM-USER-TOKEN (with X-SLURM-USER-NAME optional) or {@code Authorization: Bearer};
 * rest_auth/local trusts the kernel's uid of a Unix-socket client. A token may name another
 * user in X-SLURM-USER-NAME only when it belongs to root or SlurmUser, as in Slurm.
 */
final class Authenticator {
  static final String JWT = "rest_auth/jwt";
  static final String LOCAL = "rest_auth/local";

  private final Set<String> types;
  private final JwtVerifier jwt;
  private final String slurmUser;

  Authenticator(Set<String> types, JwtVerifier jwt, String slurmUser) {
    this.types = Set.copyOf(types);
    this.jwt = jwt;
    this.slurmUser = slurmUser;
  }

  /**
   * @param headers request headers, names lower-cased
   * @param localUid the Unix-socket peer's uid, or -1 over TCP
   */
  Identity authenticate(Map<String, List<String>> headers, int localUid) throws AuthFailure {
    String token = first(headers, "x-slurm-user-token");
    String bearer = first(headers, "authorization");
    if (token == null && bearer != null && bearer.regionMatches(true, 0, "Bearer ", 0, 7)) {
      token = bearer.substring(7).trim();
    }
    String name = first(headers, "x-slurm-user-name");
    if (token != null && types.contains(JWT)) {
      String owner = jwt.verify(token);
      if (name == null || name.equals(owner)) {
        return Identity.named(owner);
      }
      if (owner.equals("root") || owner.equals(slurmUser)) {
        return Identity.named(name);
      }
      throw new AuthFailure("token of " + owner + " may not act as " + name);
    }
    if (localUid >= 0 && types.contains(LOCAL)) {
      return new Identity(null, localUid);
    }
    throw new AuthFailure(token == null ? "no X-SLURM-USER-TOKEN or Authorization: Bearer token"
        : "rest_auth/jwt is not enabled", false);
  }

  private static String first(Map<String, List<String>> headers, String name) {
    List<String> v = headers.get(name);
    return v == null || v.isEmpty() || v.get(0).isBlank() ? null : v.get(0).trim();
  }
}
