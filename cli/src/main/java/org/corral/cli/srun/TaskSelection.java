package org.corral.cli.srun;

/**
 * Which tasks an -o, -e or -i mode ("all", "none", a task id, or a file) selects for what
 * srun itself carries: all tasks, none, or one.
 */
record TaskSelection(int task) {
  static final TaskSelection ALL = new TaskSelection(-1);
  static final TaskSelection NONE = new TaskSelection(-2);

  boolean shows(int t) {
    return task == -1 || task == t;
  }

  /**
   * The selection a mode makes; a file name (anything else) selects all tasks, whose data then
   * go to the file on the node instead (see {@link #isFile}).
   */
  static TaskSelection of(String mode) {
    if (mode == null || mode.equalsIgnoreCase("all")) {
      return ALL;
    }
    if (mode.equalsIgnoreCase("none")) {
      return NONE;
    }
    if (isTaskId(mode)) {
      return new TaskSelection(Integer.parseInt(mode));
    }
    return ALL;
  }

  /** Whether the mode names a file (written or read by the node daemon). */
  static boolean isFile(String mode) {
    return mode != null && !mode.equalsIgnoreCase("all") && !mode.equalsIgnoreCase("none")
        && !isTaskId(mode);
  }

  private static boolean isTaskId(String mode) {
    return !mode.isEmpty() && mode.length() <= 9 && mode.chars().allMatch(Character::isDigit);
  }
}
