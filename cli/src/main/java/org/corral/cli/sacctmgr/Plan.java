package org.corral.cli.sacctmgr;

import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.AcctChange;

/**
 * What an add, modify or delete would do: the lines sacctmgr prints, the changes sent to
 * slurmdbd, and how a failure is worded ("adding accounts"). Or a refusal made before asking
 * slurmdbd: its text (stdout or stderr) and exit code.
 */
final class Plan {
  final StringBuilder out = new StringBuilder();
  final List<AcctChange> changes = new ArrayList<>();
  final String doing;
  String refusal;
  boolean refusalOnStderr;

  Plan(String doing) {
    this.doing = doing;
  }

  Plan line(String s) {
    out.append(s).append('\n');
    return this;
  }

  static Plan refuse(String text, boolean stderr) {
    Plan p = new Plan("");
    p.refusal = text;
    p.refusalOnStderr = stderr;
    return p;
  }
}
