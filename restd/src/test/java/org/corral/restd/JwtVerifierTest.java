package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens slurmrestd accepts and the ones it must refuse. */
class JwtVerifierTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  @TempDir Path dir;
  private JwtVerifier verifier;

  @BeforeEach
  void key() throws Exception {
    Files.write(dir.resolve("jwt_hs256.key"), KEY);
    verifier = new JwtVerifier(dir.resolve("jwt_hs256.key"), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private static String token(JWSAlgorithm alg, byte[] key, String user, Instant exp) throws Exception {
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issueTime(Date.from(NOW.minusSeconds(10)));
    if (user != null) {
      claims.claim("sun", user);
    }
    if (exp != null) {
      claims.expirationTime(Date.from(exp));
    }
    SignedJWT jwt = new SignedJWT(new JWSHeader(alg), claims.build());
    jwt.sign(new MACSigner(key));
    return jwt.serialize();
  }

  @Test
  void aValidTokenNamesItsUser() throws Exception {
    assertThat(verifier.verify(token(JWSAlgorithm.HS256, KEY, "alice", NOW.plusSeconds(60)))).isEqualTo("alice");
  }

  @Test
  void anExpiredTokenIsRefused() throws Exception {
    String t = token(JWSAlgorithm.HS256, KEY, "alice", NOW.minusSeconds(1));
    assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(AuthFailure.class).hasMessageContaining("expired");
  }

  @Test
  void aTokenWithoutExpiryOrUserIsRefused() throws Exception {
    String noExp = token(JWSAlgorithm.HS256, KEY, "alice", null);
    assertThatThrownBy(() -> verifier.verify(noExp)).isInstanceOf(AuthFailure.class).hasMessageContaining("exp");
    String noSun = token(JWSAlgorithm.HS256, KEY, null, NOW.plusSeconds(60));
    assertThatThrownBy(() -> verifier.verify(noSun)).isInstanceOf(AuthFailure.class).hasMessageContaining("sun");
  }

  @Test
  void aTokenSignedWithAnotherKeyIsRefused() throws Exception {
    byte[] other = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII);
    String t = token(JWSAlgorithm.HS256, other, "alice", NOW.plusSeconds(60));
    assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(AuthFailure.class).hasMessageContaining("signature");
  }

  @Test
  void anUnsignedTokenIsRefused() throws Exception {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    String claims = b64.encodeToString(("{\"sun\":\"root\",\"exp\":" + NOW.plusSeconds(60).getEpochSecond() + "}")
        .getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> verifier.verify(header + "." + claims + ".")).isInstanceOf(AuthFailure.class);
    String hs256Header = b64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> verifier.verify(hs256Header + "." + claims + ".")).isInstanceOf(AuthFailure.class);
  }

  @Test
  void anotherAlgorithmIsRefusedEvenWithTheRightKey() throws Exception {
    byte[] longKey = new byte[64];
    System.arraycopy(KEY, 0, longKey, 0, KEY.length);
    Files.write(dir.resolve("jwt_hs256.key"), longKey);
    String t = token(JWSAlgorithm.HS512, longKey, "alice", NOW.plusSeconds(60));
    assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(AuthFailure.class).hasMessageContaining("HS256");
  }

  @Test
  void aTamperedPayloadIsRefused() throws Exception {
    String[] parts = token(JWSAlgorithm.HS256, KEY, "alice", NOW.plusSeconds(60)).split("\\.");
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String root = b64.encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
        .replace("alice", "root").getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> verifier.verify(parts[0] + "." + root + "." + parts[2]))
        .isInstanceOf(AuthFailure.class).hasMessageContaining("signature");
  }

  @Test
  void theKeyFileIsReadAgainWhenItChanges() throws Exception {
    Files.delete(dir.resolve("jwt_hs256.key"));
    String t = token(JWSAlgorithm.HS256, KEY, "alice", NOW.plusSeconds(60));
    assertThatThrownBy(() -> verifier.verify(t)).isInstanceOf(AuthFailure.class).hasMessageContaining("no jwt key");
    Files.write(dir.resolve("jwt_hs256.key"), KEY);
    assertThat(verifier.verify(t)).isEqualTo("alice");
  }

  @Test
  void aTokenKnownFromBeforeIsStillRefusedOnceItExpires() throws Exception {
    Instant[] now = {NOW};
    Clock moving = new Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now[0];
      }
    };
    JwtVerifier v = new JwtVerifier(dir.resolve("jwt_hs256.key"), moving);
    String t = token(JWSAlgorithm.HS256, KEY, "alice", NOW.plusSeconds(60));
    assertThat(v.verify(t)).isEqualTo("alice");
    assertThat(v.verify(t)).isEqualTo("alice"); // from memory
    now[0] = NOW.plusSeconds(61);
    assertThatThrownBy(() -> v.verify(t)).isInstanceOf(AuthFailure.class).hasMessageContaining("expired");
  }
}
