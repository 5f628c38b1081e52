package org.corral.protocol.auth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import org.corral.protocol.ClusterKey;

/**
 * The cluster keys auth/slurm signs and checks with: slurm.key beside slurm.conf (or the file
 * SLURM_SACK_KEY names), as Slurm's. Each key has an id (slurm.key's is empty) and may expire;
 * credentials name the key they were signed with, so keys can be rotated one host at a time.
 */
public final class SackKeys {
  /** SLURM_SACK_KEY: another file than slurm.key beside slurm.conf, as Slurm's daemons take. */
  public static final String KEY_ENV = "SLURM_SACK_KEY";

  /** One key: its id, the key, and when it expires (epoch seconds; 0: never). */
  public record Key(String kid, ClusterKey key, long expiresAtS) {
    public Key {
      Objects.requireNonNull(kid, "kid");
      Objects.requireNonNull(key, "key");
    }

    Mac mac() {
      return key.newMac();
    }

    boolean validAt(long nowMs) {
      return expiresAtS == 0 || nowMs < expiresAtS * 1000;
    }
  }

  private final Map<String, Key> byKid;
  private final String signingKid;

  private SackKeys(Map<String, Key> byKid, String signingKid) {
    this.byKid = Map.copyOf(byKid);
    this.signingKid = signingKid;
  }

  /** A keyring of one key without an id (slurm.key). */
  public static SackKeys of(ClusterKey key) {
    return new SackKeys(Map.of("", new Key("", key, 0)), "");
  }

  /** A keyring of several keys; new credentials are signed with {@code signingKid}'s. */
  public static SackKeys of(Map<String, Key> keys, String signingKid) {
    if (!keys.containsKey(signingKid)) {
      throw new IllegalArgumentException("no key \"" + signingKid + "\" to sign with");
    }
    return new SackKeys(new LinkedHashMap<>(keys), signingKid);
  }

  /** The key file a daemon reads: SLURM_SACK_KEY, else slurm.key beside {@code slurmConf}. */
  public static Path keyFile(Path slurmConf, Map<String, String> env) {
    String named = env.get(KEY_ENV);
    return named != null && !named.isBlank() ? Path.of(named)
        : slurmConf.toAbsolutePath().resolveSibling("slurm.key");
  }

  /** Loads the cluster key as {@link ClusterKey#load(Path, int)} (root or SlurmUser only). */
  public static SackKeys load(Path slurmConf, Map<String, String> env, int slurmUid)
      throws IOException {
    return of(ClusterKey.load(keyFile(slurmConf, env), slurmUid));
  }

  /** The key new credentials are signed with. */
  Key signing(long nowMs) {
    return byKid.get(signingKid);
  }

  /** The key {@code kid} names, if this host has it and it has not expired. */
  Optional<Key> verifying(String kid, long nowMs) {
    return Optional.ofNullable(byKid.get(kid)).filter(k -> k.validAt(nowMs));
  }

  @Override
  public String toString() {
    return "SackKeys" + byKid.keySet();
  }
}
