package org.corral.cli.sbatch;

import java.util.OptionalInt;
import org.corral.cli.scancel.SignalNames;

/**
 * sbatch's {@code --signal=[{R|B}:]SIG[@TIME]}: the signal to send TIME seconds (default 60,
 * at most 65535) before the job's time limit; B: to the batch shell only, R: reservation
 * overlap allowed.
 */
record WarnSignal(int signal, int seconds, boolean batchOnly, boolean reservation) {
  static final int DEFAULT_SECONDS = 60;
  private static final int MAX_SECONDS = 0xffff;

  static WarnSignal parse(String value) throws SbatchFailure {
    String v = value == null ? "" : value;
    boolean batch = false;
    boolean resv = false;
    int colon = v.indexOf(':');
    if (colon >= 0) {
      String flags = v.substring(0, colon);
      for (char c : flags.toCharArray()) {
        switch (c) {
          case 'B', 'b' -> batch = true;
          case 'R', 'r' -> resv = true;
          default -> throw invalid();
        }
      }
      if (flags.isEmpty()) {
        throw invalid();
      }
      v = v.substring(colon + 1);
    }
    int seconds = DEFAULT_SECONDS;
    int at = v.indexOf('@');
    if (at >= 0) {
      String t = v.substring(at + 1);
      if (t.isEmpty() || t.length() > 6 || !t.chars().allMatch(Character::isDigit)) {
        throw invalid();
      }
      seconds = Integer.parseInt(t);
      if (seconds > MAX_SECONDS) {
        throw invalid();
      }
      v = v.substring(0, at);
    }
    OptionalInt sig = SignalNames.parse(v);
    if (sig.isEmpty()) {
      throw invalid();
    }
    return new WarnSignal(sig.getAsInt(), seconds, batch, resv);
  }

  private static SbatchFailure invalid() {
    return SbatchFailure.invalid("Invalid --signal specification");
  }
}
