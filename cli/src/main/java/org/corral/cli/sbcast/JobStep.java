package org.corral.cli.sbcast;

/**
 * -j JOB[+OFFSET][.STEP] as sbcast reads it: a job id that is no number counts as 0 (C's atoi),
 * which the controller then refuses as an invalid job id, as Slurm's does.
 *
 * @param step "" when none was given
 */
record JobStep(int jobId, String step) {
  static JobStep parse(String text) {
    String t = text.strip();
    String step = "";
    int dot = t.indexOf('.');
    if (dot >= 0) {
      step = t.substring(dot + 1);
      t = t.substring(0, dot);
    }
    int plus = t.indexOf('+');
    if (plus >= 0) {
      t = t.substring(0, plus);
    }
    return new JobStep(org.corral.cli.format.Atoi.of(t), step);
  }

  /** How Slurm names it in messages: "7", "7.0". */
  String text() {
    return Integer.toUnsignedString(jobId) + (step.isEmpty() ? "" : "." + step);
  }
}
