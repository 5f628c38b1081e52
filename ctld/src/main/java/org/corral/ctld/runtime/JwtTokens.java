package org.corral.ctld.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.corral.common.SlurmError;
import org.corral.protocol.Peer;
import org.corral.protocol.msg.TokenReply;
import org.corral.protocol.msg.TokenRequest;

/**
 * {@code scontrol token}: HS256 JSON Web Tokens as Slurm's auth/jwt makes them (claims
 * {@code exp}, {@code iat}, {@code sun}), signed with the key in {@code
 * AuthAltParameters=jwt_key=PATH} or else StateSaveLocation/jwt_hs256.key, which is created
 * (32 random bytes, mode 0600) when missing. slurmrestd verifies the tokens with the same key.
 * Users get tokens for themselves; root and SlurmUser for anyone.
 */
final class JwtTokens {
  static final String KEY_FILE = "jwt_hs256.key";
  static final int DEFAULT_LIFESPAN_S = 1800;
  private static final int KEY_BYTES = 32;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final Path keyFile;
  private final Clock clock;

  JwtTokens(Path keyFile, Clock clock) {
    this.keyFile = keyFile;
    this.clock = clock;
  }

  /** The tokens of the controller configured by {@code entries} (slurm.conf's top-level keys). */
  static JwtTokens of(Map<String, String> entries, Clock clock) {
    return new JwtTokens(keyFile(entries), clock);
  }

  /** AuthAltParameters' jwt_key, else StateSaveLocation/jwt_hs256.key. */
  static Path keyFile(Map<String, String> entries) {
    String state = "/var/spool/slurmctld";
    for (Map.Entry<String, String> e : entries.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      if (key.equals("authaltparameters")) {
        for (String p : e.getValue().split(",")) {
          if (p.trim().startsWith("jwt_key=")) {
            return Path.of(p.trim().substring("jwt_key=".length()));
          }
        }
      } else if (key.equals("statesavelocation")) {
        state = e.getValue();
      }
    }
    return Path.of(state).resolve(KEY_FILE);
  }

  TokenReply mint(Peer peer, TokenRequest req, Authorizer auth) {
    if (peer.isDaemon() || peer.uid() < 0 || peer.userName() == null) {
      throw new SlurmException(SlurmError.ACCESS_DENIED, "tokens are minted for users only");
    }
    String user = req.getUserName().isEmpty() ? peer.userName() : req.getUserName();
    if (!user.equals(peer.userName()) && !auth.isAdmin(peer)) {
      throw new SlurmException(SlurmError.ACCESS_DENIED);
    }
    if (!user.matches("[A-Za-z0-9_.][A-Za-z0-9_.@-]*")) {
      throw new SlurmException(SlurmError.USER_ID_MISSING);
    }
    long lifespan = req.getLifespanS() == 0 ? DEFAULT_LIFESPAN_S : req.getLifespanS();
    long now = clock.instant().getEpochSecond();
    long exp = now + lifespan;
    String header = B64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    String claims = B64.encodeToString(("{\"exp\":" + exp + ",\"iat\":" + now + ",\"sun\":\"" + user + "\"}")
        .getBytes(StandardCharsets.UTF_8));
    String signingInput = header + "." + claims;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key(), "HmacSHA256"));
      String sig = B64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
      return TokenReply.newBuilder().setToken(signingInput + "." + sig).setUserName(user).setExpires(exp).build();
    } catch (IOException | GeneralSecurityException e) {
      throw new SlurmException(SlurmError.AUTH_UNABLE_TO_SIGN, "cannot sign a token with " + keyFile + ": " + e.getMessage());
    }
  }

  /**
   * The user a token names ({@code sun}) when it is an HS256 token signed with this controller's
   * key and not expired; empty otherwise (malformed, forged, expired, or no key).
   */
  Optional<String> verify(String token) {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3 || token.length() > 4096) {
      return Optional.empty();
    }
    try {
      String header = new String(B64D.decode(parts[0]), StandardCharsets.UTF_8);
      if (!header.replace(" ", "").contains("\"alg\":\"HS256\"") || !Files.exists(keyFile)) {
        return Optional.empty();
      }
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key(), "HmacSHA256"));
      byte[] expected = mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!MessageDigest.isEqual(expected, B64D.decode(parts[2]))) {
        return Optional.empty();
      }
      String claims = new String(B64D.decode(parts[1]), StandardCharsets.UTF_8);
      Matcher exp = EXP.matcher(claims);
      Matcher sun = SUN.matcher(claims);
      if (!exp.find() || !sun.find() || Long.parseLong(exp.group(1)) <= clock.instant().getEpochSecond()) {
        return Optional.empty();
      }
      return Optional.of(sun.group(1));
    } catch (IllegalArgumentException | IOException | GeneralSecurityException e) {
      return Optional.empty();
    }
  }

  private static final Base64.Decoder B64D = Base64.getUrlDecoder();
  private static final Pattern EXP = Pattern.compile("\"exp\"\\s*:\\s*(\\d{1,18})");
  private static final Pattern SUN = Pattern.compile("\"sun\"\\s*:\\s*\"([A-Za-z0-9_.@-]+)\"");

  /** The key's bytes, creating the file (0600, random) when there is none yet. */
  byte[] key() throws IOException {
    if (!Files.exists(keyFile)) {
      byte[] fresh = new byte[KEY_BYTES];
      new SecureRandom().nextBytes(fresh);
      Files.createDirectories(keyFile.getParent());
      Path tmp = Files.createTempFile(keyFile.getParent(), ".jwt", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try {
        Files.write(tmp, fresh);
        Files.createLink(keyFile, tmp); // fails if another thread created it meanwhile
      } catch (FileAlreadyExistsException raced) {
        // the other one's key stands
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    byte[] key = Files.readAllBytes(keyFile);
    if (key.length < KEY_BYTES) {
      throw new IOException("the jwt key must have at least " + KEY_BYTES + " bytes (HS256), it has " + key.length);
    }
    return key;
  }
}
