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
import java.util.Date;
import java.util.Locale;

/**
 * Checks the HS256 JWTs that {@code scontrol token} hands out (auth/jwt): signed with the
 * cluster's jwt key, not expired, naming a user in {@code sun}. Unsigned tokens ({@code
 * alg=none}), other algorithms, a wrong signature or a changed payload are refused. The key
 * file is read again when it changes, so a key the controller creates later is picked up.
 */
final class JwtVerifier {
  static final String KEY_FILE = "jwt_hs256.key";

  private final Path keyFile;
  private final Clock clock;
  private volatile Loaded loaded;

  private record Loaded(FileTime modified, MACVerifier verifier) {}

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

  /** The user the token names. */
  String verify(String token) throws AuthFailure {
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
      if (!jwt.verify(verifier())) {
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
    return user;
  }

  private MACVerifier verifier() throws AuthFailure {
    try {
      FileTime modified = Files.getLastModifiedTime(keyFile);
      Loaded l = loaded;
      if (l == null || !l.modified().equals(modified)) {
        l = new Loaded(modified, new MACVerifier(Files.readAllBytes(keyFile)));
        loaded = l;
      }
      return l.verifier();
    } catch (IOException e) {
      throw new AuthFailure("no jwt key at " + keyFile + " (" + e.getMessage() + ")");
    } catch (JOSEException e) {
      throw new AuthFailure("jwt key " + keyFile + " unusable: " + e.getMessage());
    }
  }
}
