package org.corral.cli.srun;

/** What glibc's strsignal(3) says for each Linux signal, which srun prints for a killed task. */
final class SignalText {

  private static final String[] TEXT = {
      null, "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap",
      "Aborted", "Bus error", "Floating point exception", "Killed", "User defined signal 1",
      "Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
      "Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped",
      "Stopped (tty input)", "Stopped (tty output)", "Urgent I/O condition",
      "CPU time limit exceeded", "File size limit exceeded", "Virtual timer expired",
      "Profiling timer expired", "Window changed", "I/O possible", "Power failure",
      "Bad system call"};

  /** The first real-time signal as glibc numbers them for applications. */
  private static final int SIGRTMIN = 34;
  private static final int SIGRTMAX = 64;

  private SignalText() {}

  static String of(int signal) {
    if (signal > 0 && signal < TEXT.length) {
      return TEXT[signal];
    }
    if (signal >= SIGRTMIN && signal <= SIGRTMAX) {
      return "Real-time signal " + (signal - SIGRTMIN);
    }
    return "Unknown signal " + signal;
  }
}
