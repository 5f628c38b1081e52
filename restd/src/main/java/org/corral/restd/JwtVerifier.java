package org.corral.restd;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks the HS256 JWTs that {@code scontrol token} hands out (auth/jwt): signed with the
 * cluster's jwt key, not expired, naming a user in {@code sun}. Unsigned tokens ({@code
 * alg=none}), other algorithms, a wrong signature or a changed payload are refused. The key
 * file is read again when it changes, so a key the controller creates later is picked up.
 */
final class JwtVerifier {
  static final String KEY_FILE = "jwt_hs256.key";

  /** Tokens verified once are known until they expire (or the key changes): at most this many. */
  static final int CACHE_SIZE = 10_000;
  /** How often the key file is looked at again for a change. */
  private static final long KEY_CHECK_NANOS = 1_000_000_000L;

  private final Path keyFile;
  private final Clock clock;
  private volatile Loaded loaded;
  private volatile long keyCheckedAt;
  private final ConcurrentHashMap<String, Verified> verified = new ConcurrentHashMap<>();

  private record Loaded(FileTime modified, MACVerifier verifier) {}

  /** A token whose signature and claims were checked with {@code key}: its user and expiry. */
  private record Verified(Loaded key, String user, Instant exp) {}

  JwtVerifier(Path keyFile, Clock clock) {
    this.keyFile = keyFile;
    this.clock = clock;
  }

  /** AuthAltParameters' jwt_key=PATH, else StateSaveLocation/jwt_hs256.key (as the controller). */
  static Path keyFile(String authAltParameters, Path stateSaveLocation) {
    if (authAltParameters != null) {
      for (String p : authAltParameters.split(",")) {
        if (p.trim().toLowerCase(Locale.ROOT).startsWith("jwt_key=")) {
          return Path.of(p.trim().substring("jwt_key=".length()));
        }
      }
    }
    return stateSaveLocation.resolve(KEY_FILE);
  }

  /**
   * The user the token names. A token seen before is answered from memory while it has not
   * expired and the key has not changed: parsing and the HMAC are done once per token, not once
   * per request.
   */
  String verify(String token) throws AuthFailure {
    Loaded key = verifier();
    Verified known = verified.get(token);
    if (known != null && known.key() == key && known.exp().isAfter(clock.instant())) {
      return known.user();
    }
    return check(token, key);
  }

  private String check(String token, Loaded key) throws AuthFailure {
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token.trim());
    } catch (ParseException e) {
      throw new AuthFailure("token is not a signed JWT: " + e.getMessage());
    }
    if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
      throw new AuthFailure("token algorithm " + jwt.getHeader().getAlgorithm() + " refused (HS256 only)");
    }
    try {
      if (!jwt.verify(key.verifier())) {
        throw new AuthFailure("token signature does not match");
      }
    } catch (JOSEException e) {
      throw new AuthFailure("token cannot be verified: " + e.getMessage());
    }
    JWTClaimsSet claims;
    String user;
    try {
      claims = jwt.getJWTClaimsSet();
      user = claims.getStringClaim("sun");
    } catch (ParseException e) {
      throw new AuthFailure("token claims are malformed");
    }
    Date exp = claims.getExpirationTime();
    if (exp == null) {
      throw new AuthFailure("token has no expiry (exp)");
    }
    if (!exp.toInstant().isAfter(clock.instant())) {
      throw new AuthFailure("token expired at " + exp.toInstant());
    }
    if (user == null || user.isEmpty()) {
      throw new AuthFailure("token names no user (sun)");
    }
    if (verified.size() >= CACHE_SIZE) {
      verified.clear();
    }
    verified.put(token, new Verified(key, user, exp.toInstant()));
    return user;
  }

  /** The key, read again when the file changed (looked at no more than once a second). */
  private Loaded verifier() throws AuthFailure {
    long now = System.nanoTime();
    Loaded l = loaded;
    if (l != null && now - keyCheckedAt < KEY_CHECK_NANOS) {
      return l;
    }
    try {
      FileTime modified = Files.getLastModifiedTime(keyFile);
      if (l == null || !l.modified().equals(modified)) {
        l = new Loaded(modified, new MACVerifier(Files.readAllBytes(keyFile)));
        loaded = l;
        verified.clear();
      }
      keyCheckedAt = now;
      return l;
    } catch (IOException e) {
      throw new AuthFailure("no jwt key at " + keyFile + " (" + e.getMessage() + ")");
    } catch (JOSEException e) {
      throw new AuthFailure("jwt key " + keyFile + " unusable: " + e.getMessage());
    }
  }
}
