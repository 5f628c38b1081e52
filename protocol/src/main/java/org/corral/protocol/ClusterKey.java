package org.corral.protocol;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster's shared HMAC key, read from a file only root (or SlurmUser) can read. A key that
 * anyone else can read or write would let any user forge daemon messages, so such a file is
 * refused rather than used.
 */
public final class ClusterKey {
  public static final int GENERATED_BYTES = 32;
  public static final int MIN_BYTES = 16;
  /** No SlurmUser given: only root or the reading process itself may own the key file. */
  public static final int NO_SLURM_USER = -1;

  private static final String ALGORITHM = "HmacSHA256";
  private static final int GROUP_OTHER_BITS = 0077;

  private final SecretKeySpec secret;
  /**
   * Initialised once and never updated: each use gets a clone. Mac.getInstance looks the
   * algorithm up among the security providers and init derives the key pads, which together cost
   * more than signing a message; a clone copies the initialised state.
   */
  private Mac prototype;

  private ClusterKey(byte[] bytes) {
    if (bytes.length < MIN_BYTES) {
      throw new IllegalArgumentException(
          "a cluster key needs at least " + MIN_BYTES + " bytes, got " + bytes.length);
    }
    this.secret = new SecretKeySpec(bytes, ALGORITHM);
  }

  /** A key from raw bytes (in-process clusters and tests); at least {@value #MIN_BYTES} bytes. */
  public static ClusterKey of(byte[] bytes) {
    return new ClusterKey(bytes.clone());
  }

  /** A fresh random key held only in memory. */
  public static ClusterKey random() {
    return new ClusterKey(randomBytes());
  }

  /** Loads a key file owned by root or by the reading process. */
  public static ClusterKey load(Path file) throws IOException {
    return load(file, NO_SLURM_USER);
  }

  /** Loads a key file owned by root, the reading process or {@code slurmUserUid}. */
  public static ClusterKey load(Path file, int slurmUserUid) throws IOException {
    int mode = (Integer) Files.getAttribute(file, "unix:mode");
    if ((mode & GROUP_OTHER_BITS) != 0) {
      throw new IOException(String.format(
          "cluster key %s has mode %04o: it must not be readable or writable by group or others"
              + " (chmod 0400 %s)", file, mode & 07777, file));
    }
    int owner = (Integer) Files.getAttribute(file, "unix:uid");
    if (owner != 0 && owner != processUid() && owner != slurmUserUid) {
      throw new IOException("cluster key " + file + " is owned by uid " + owner
          + "; it must be owned by root" + (slurmUserUid >= 0 ? " or SlurmUser (uid "
          + slurmUserUid + ")" : "") + " (mode " + String.format("%04o", mode & 07777) + ")");
    }
    byte[] bytes = Files.readAllBytes(file);
    try {
      if (bytes.length < MIN_BYTES) {
        throw new IOException("cluster key " + file + " holds " + bytes.length
            + " bytes; it needs at least " + MIN_BYTES);
      }
      return new ClusterKey(bytes);
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  /**
   * Writes a new random key with mode 0400. The key appears complete or not at all, and an
   * existing key is never replaced (that would cut this host off from the cluster).
   */
  public static void generate(Path file) throws IOException {
    if (Files.exists(file)) {
      throw new FileAlreadyExistsException(file.toString(), null, "cluster key already exists");
    }
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    Set<PosixFilePermission> ownerRead = PosixFilePermissions.fromString("r--------");
    byte[] bytes = randomBytes();
    try (SeekableByteChannel ch = Files.newByteChannel(tmp,
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.DSYNC),
        PosixFilePermissions.asFileAttribute(ownerRead))) {
      ch.write(java.nio.ByteBuffer.wrap(bytes));
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
    try {
      // link(2) publishes the finished file atomically and fails if the name is taken.
      Files.createLink(file, tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** A MAC initialised with this key; one per use, as Mac is not thread-safe. */
  public Mac newMac() {
    synchronized (this) {
      if (prototype == null) {
        prototype = initialisedMac();
      }
      try {
        return (Mac) prototype.clone();
      } catch (CloneNotSupportedException e) {
        return initialisedMac(); // a provider whose HMAC cannot be cloned
      }
    }
  }

  private Mac initialisedMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(secret);
      return mac;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JDK", e);
    }
  }

  @Override
  public String toString() {
    return "ClusterKey[hidden]";
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[GENERATED_BYTES];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static int processUid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }
}
