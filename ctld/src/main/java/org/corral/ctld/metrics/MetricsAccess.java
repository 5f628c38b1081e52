package org.corral.ctld.metrics;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.corral.protocol.http.HttpRequest;
import org.corral.protocol.http.HttpResponse;

/**
 * Who may read the metrics, as Slurm 25.11 decides: everyone, unless PrivateData is set (then
 * nobody, unless MetricsParameters=ignore_private_data) or MetricsAuthUsers lists users (then
 * those alone, whatever PrivateData says). SlurmUser and root always may; where access is
 * restricted the caller proves who it is with a JWT ({@code scontrol token}) in
 * {@code X-SLURM-USER-TOKEN} or {@code Authorization: Bearer}.
 *
 * @param open whether anyone may read without a token
 * @param allowed the users a valid token may name (root and SlurmUser included)
 * @param tokenUser the user a valid, unexpired token names
 */
record MetricsAccess(boolean open, Set<String> allowed, Function<String, Optional<String>> tokenUser) {

  static MetricsAccess of(String privateData, String parameters, Set<String> authUsers, String slurmUser,
      Function<String, Optional<String>> tokenUser) {
    boolean privateSet = privateData != null && !privateData.isBlank()
        && !privateData.trim().equalsIgnoreCase("none");
    boolean ignorePrivate = parameters != null
        && Set.of(parameters.toLowerCase(Locale.ROOT).split(",")).contains("ignore_private_data");
    boolean open = authUsers.isEmpty() && (!privateSet || ignorePrivate);
    Set<String> allowed = new HashSet<>(authUsers);
    allowed.add("root");
    allowed.add(slurmUser);
    return new MetricsAccess(open, Set.copyOf(allowed), tokenUser);
  }

  /** Empty when the request may read; else the refusal to send. */
  Optional<HttpResponse> refusal(HttpRequest request) {
    if (open) {
      return Optional.empty();
    }
    Optional<String> token = request.header("X-SLURM-USER-TOKEN")
        .or(() -> request.header("Authorization").filter(a -> a.regionMatches(true, 0, "Bearer ", 0, 7))
            .map(a -> a.substring(7).trim()));
    if (token.isEmpty()) {
      return Optional.of(HttpResponse.error(401, "metrics need a token (PrivateData or MetricsAuthUsers is set)")
          .withHeader("WWW-Authenticate", "Bearer"));
    }
    Optional<String> user = tokenUser.apply(token.get());
    if (user.isEmpty()) {
      return Optional.of(HttpResponse.error(401, "invalid or expired token"));
    }
    if (!allowed.contains(user.get())) {
      return Optional.of(HttpResponse.error(403, "user " + user.get() + " may not read the metrics"));
    }
    return Optional.empty();
  }
}
