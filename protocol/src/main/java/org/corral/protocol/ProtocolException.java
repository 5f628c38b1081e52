package org.corral.protocol;

import java.util.Objects;
import org.corral.common.SlurmError;

/** Bytes on a connection that are not a valid frame; carries the Slurm error to answer with. */
public final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient SlurmError error;
  /** The type of the frame refused for its size, or -1. */
  private final int frameType;

  public ProtocolException(SlurmError error, String message) {
    super(message);
    this.error = Objects.requireNonNull(error, "error");
    this.frameType = -1;
  }

  /** A frame of {@code frameType} refused for its size. */
  static ProtocolException tooLarge(int frameType, long length, int limit) {
    return new ProtocolException(frameType,
        "frame of " + length + " bytes exceeds the limit of " + limit);
  }

  private ProtocolException(int frameType, String message) {
    super(message);
    this.error = SlurmError.MESSAGE_TOO_LARGE;
    this.frameType = frameType;
  }

  /** The type of a frame refused for its size (0 when not known from its start), or -1. */
  public int frameType() {
    return frameType;
  }

  public ProtocolException(SlurmError error, String message, Throwable cause) {
    super(message, cause);
    this.error = Objects.requireNonNull(error, "error");
    this.frameType = -1;
  }

  public SlurmError error() {
    return error;
  }
}
