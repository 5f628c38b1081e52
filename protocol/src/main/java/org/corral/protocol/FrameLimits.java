package org.corral.protocol;

import java.util.HashMap;
import java.util.Map;
import org.corral.common.SlurmError;

/**
 * How large a request frame a server reads, by who sends it. A TCP connection's frames are
 * limited to {@link #unauthenticated} bytes until it has proved a daemon's identity (a signed
 * hello), so that no one without the cluster key can make a daemon allocate more; local users
 * (identified by the kernel before anything is read) get {@link #user} bytes, or the larger
 * amount a message type that carries a job script or environment needs. Daemons, root and the
 * server's own user get the server's whole limit ({@link RpcServerConfig#maxFrameBytes}).
 *
 * @param unauthenticated a TCP connection's frames before its signed hello
 * @param user a local user's frames, for types not in {@code userByType}
 * @param userByType a local user's frames of these request types (field numbers)
 * @param refusals the error a local user's frame of these types over its limit is answered with
 *     (else MESSAGE_TOO_LARGE)
 */
public record FrameLimits(int unauthenticated, int user, Map<Integer, Integer> userByType,
    Map<Integer, SlurmError> refusals) {
  public static final int DEFAULT_UNAUTHENTICATED = 64 * 1024;
  public static final int DEFAULT_USER = 1024 * 1024;
  public static final FrameLimits DEFAULT =
      new FrameLimits(DEFAULT_UNAUTHENTICATED, DEFAULT_USER, Map.of(), Map.of());

  public FrameLimits {
    if (unauthenticated <= FrameCodec.VERSION_BYTES || user <= FrameCodec.VERSION_BYTES) {
      throw new IllegalArgumentException("frame limits must be above 2 bytes");
    }
    userByType = Map.copyOf(userByType);
    refusals = Map.copyOf(refusals);
  }

  public FrameLimits(int unauthenticated, int user, Map<Integer, Integer> userByType) {
    this(unauthenticated, user, userByType, Map.of());
  }

  /** These limits with local users' frames of {@code type} allowed {@code bytes}. */
  public FrameLimits withUserType(int type, int bytes) {
    return withUserType(type, bytes, SlurmError.MESSAGE_TOO_LARGE);
  }

  /**
   * As {@link #withUserType(int, int)}, a larger frame answered with {@code refusal} (a
   * submission's limit follows from its script's, so it is refused as Slurm refuses the script).
   */
  public FrameLimits withUserType(int type, int bytes, SlurmError refusal) {
    Map<Integer, Integer> more = new HashMap<>(userByType);
    more.put(type, bytes);
    Map<Integer, SlurmError> answers = new HashMap<>(refusals);
    answers.put(type, refusal);
    return new FrameLimits(unauthenticated, user, more, answers);
  }

  /** The error a local user's frame of {@code type} over its limit is answered with. */
  public SlurmError refusalFor(int type) {
    return refusals.getOrDefault(type, SlurmError.MESSAGE_TOO_LARGE);
  }

  /** The limit for a local user's frame of {@code type}. */
  public int forUser(int type) {
    return userByType.getOrDefault(type, user);
  }
}
