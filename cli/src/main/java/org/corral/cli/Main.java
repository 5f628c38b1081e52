package org.corral.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.BackoffRetry;
import org.corral.protocol.UnixSocketChannel;

/**
 * Entry point of every user command: {@code Main NAME args...}, where NAME is the command the
 * user typed (bin/ launchers pass it). Loads nothing it does not need: the configuration is
 * read only when a command first talks to the controller.
 */
public final class Main {
  private Main() {}

  public static void main(String[] argv) {
    if (argv.length == 0) {
      System.err.println("usage: Main COMMAND [ARGS...]");
      System.exit(2);
    }
    String name = argv[0];
    List<String> args = Arrays.asList(argv).subList(1, argv.length);
    if (mayConnect(args)) {
      UnixSocketChannel.prepareInBackground();
    }
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true,
        StandardCharsets.UTF_8);
    int rc = run(name, args, out, err, System.getenv(), new LocalClock(), Caller.thisProcess());
    out.flush();
    System.out.flush();
    System.err.flush();
    // halt, not exit: the commands register no shutdown hooks, and exit would start the JDK's
    // logging (Runtime.exit logs) and its provider lookup over the class path on every command
    Runtime.getRuntime().halt(rc);
  }

  /**
   * Runs one command for the given caller and returns its exit code; {@code main} runs one
   * here, the command server one for each call it gets.
   */
  public static int run(String name, List<String> args, PrintStream out, PrintStream err,
      Map<String, String> env, Clock clock, Caller caller) {
    Cli cli = new Cli(name, out, err, env, clock, controller(env, err, name), accounting(env, err, name), caller);
    try {
      return command(name, caller).run(args, cli);
    } catch (ControllerUnreachable e) {
      return 1;
    }
  }

  /**
   * False for a version or help request, which never reaches the controller: the socket set-up
   * would only cost CPU. (A stray match, such as -V as another option's value, only skips it.)
   */
  static boolean mayConnect(List<String> args) {
    for (String a : args) {
      if (a.equals("--version") || a.equals("-V") || a.equals("--help") || a.equals("--usage")) {
        return false;
      }
    }
    return true;
  }

  static CliCommand command(String name, Caller caller) {
    return switch (name) {
      case "sbatch" -> new org.corral.cli.sbatch.SbatchCommand(caller);
      case "scancel" -> new org.corral.cli.scancel.ScancelCommand();
      case "squeue" -> new org.corral.cli.squeue.SqueueCommand();
      case "sinfo" -> new org.corral.cli.sinfo.SinfoCommand();
      case "scontrol" -> new org.corral.cli.scontrol.ScontrolCommand(caller);
      case "sstat" -> new org.corral.cli.sstat.SstatCommand();
      case "sprio" -> new org.corral.cli.sprio.SprioCommand();
      case "sdiag" -> new org.corral.cli.sdiag.SdiagCommand();
      case "sacct" -> new org.corral.cli.sacct.SacctCommand();
      case "srun" -> new org.corral.cli.srun.SrunCommand(caller);
      case "salloc" -> new org.corral.cli.salloc.SallocCommand(caller);
      case "sacctmgr" -> new org.corral.cli.sacctmgr.SacctmgrCommand(caller);
      case "sreport" -> new org.corral.cli.sreport.SreportCommand(caller);
      case "seff" -> new org.corral.cli.seff.SeffCommand();
      case "sshare" -> new org.corral.cli.sshare.SshareCommand();
      case "sbcast" -> new org.corral.cli.sbcast.SbcastCommand();
      case "strigger" -> new org.corral.cli.strigger.StriggerCommand();
      default -> (args, cli) -> {
        cli.error("this command is not part of Corral yet");
        return 1;
      };
    };
  }

  /** The controller's channel (DaemonChannels), found through slurm.conf on first use. */
  static Supplier<RpcChannel> controller(Map<String, String> env, PrintStream err, String name) {
    return () -> {
      Path conf = SlurmConfig.defaultPath(env);
      try {
        // rate limited (SlurmctldParameters=rl_enable): back off and retry, as Slurm's commands do
        return new BackoffRetry(DaemonChannels.controller(SlurmConfig.loadShared(conf)));
      } catch (Exception e) {
        err.println(name + ": error: " + e.getMessage());
        throw new ControllerUnreachable();
      }
    };
  }

  /** slurmdbd's channel (DaemonChannels), found through slurm.conf on first use. */
  static Supplier<RpcChannel> accounting(Map<String, String> env, PrintStream err, String name) {
    return () -> {
      Path conf = SlurmConfig.defaultPath(env);
      try {
        return DaemonChannels.accounting(SlurmConfig.loadShared(conf));
      } catch (Exception e) {
        err.println(name + ": error: " + e.getMessage());
        throw new ControllerUnreachable();
      }
    };
  }

  /** The configuration could not be read: already reported, the command exits 1. */
  static final class ControllerUnreachable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ControllerUnreachable() {
      super(null, null, false, false);
    }
  }
}
