package org.corral.protocol;

/**
 * Step ids. Ordinary steps count from 0; Slurm gives its special steps the top values of the
 * unsigned 32-bit range, which Corral keeps (as negative ints) so they sort and print alike.
 */
public final class StepIds {
  public static final int PENDING = 0xfffffffd;
  public static final int EXTERN = 0xfffffffc;
  public static final int BATCH = 0xfffffffb;
  public static final int INTERACTIVE = 0xfffffffa;

  private StepIds() {}

  /** The step's suffix as squeue and scontrol print it: 0, batch, extern, interactive. */
  public static String name(int stepId) {
    return switch (stepId) {
      case BATCH -> "batch";
      case EXTERN -> "extern";
      case INTERACTIVE -> "interactive";
      case PENDING -> "TBD";
      default -> Integer.toUnsignedString(stepId);
    };
  }

  /** Parses "0", "batch", "extern", "interactive"; throws IllegalArgumentException otherwise. */
  public static int parse(String text) {
    return switch (text) {
      case "batch" -> BATCH;
      case "extern" -> EXTERN;
      case "interactive" -> INTERACTIVE;
      default -> {
        long v;
        try {
          v = Long.parseLong(text);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("invalid step id: " + text);
        }
        if (v < 0 || v >= PENDING_UNSIGNED) {
          throw new IllegalArgumentException("invalid step id: " + text);
        }
        yield (int) v;
      }
    };
  }

  private static final long PENDING_UNSIGNED = Integer.toUnsignedLong(PENDING);
}
