package org.corral.cli.sbatch;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch script's text and what sbatch reads from it: the #SBATCH directives at its top.
 *
 * @param text the script as submitted
 * @param origin its name in messages (the file operand, or null for stdin and --wrap)
 */
record BatchScript(String text, String origin) {

  private static final String DIRECTIVE = "#SBATCH";

  /** The script --wrap generates around a command, as Slurm writes it. */
  static BatchScript wrapping(String command) {
    return new BatchScript(
        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + command + "\n", null);
  }

  /**
   * Refuses what Slurm refuses to submit: an empty script, one without an interpreter line,
   * one with DOS line breaks, or one containing a NUL character.
   */
  void validate() throws SbatchFailure {
    if (text.isEmpty()) {
      throw SbatchFailure.error("Batch script is empty!");
    }
    if (!text.startsWith("#!")) {
      throw new SbatchFailure(1, List.of(
          "sbatch: error: This does not look like a batch script.  The first",
          "sbatch: error: line must start with #! followed by the path to an interpreter.",
          "sbatch: error: For instance: #!/bin/sh"));
    }
    if (text.indexOf('\0') >= 0) {
      throw new SbatchFailure(1, List.of(
          "sbatch: error: The Slurm controller does not allow scripts that",
          "sbatch: error: contain a NULL character '\\0'."));
    }
    if (text.contains("\r\n")) {
      throw new SbatchFailure(1, List.of(
          "sbatch: error: Batch script contains DOS line breaks (\\r\\n)",
          "sbatch: error: instead of expected UNIX line breaks (\\n)."));
    }
  }

  /**
   * The arguments of the #SBATCH lines, in order. Directives are read up to the first line that
   * is neither blank nor a comment. Within a line, whitespace separates arguments, single or
   * double quotes group (and are removed), and an unquoted '#' ends the line.
   */
  List<String> directiveArguments() throws SbatchFailure {
    List<String> args = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (!trimmed.startsWith("#")) {
        break;
      }
      if (line.startsWith(DIRECTIVE) && (line.length() == DIRECTIVE.length()
          || Character.isWhitespace(line.charAt(DIRECTIVE.length())))) {
        args.addAll(split(line.substring(DIRECTIVE.length()), i + 1));
      }
    }
    return args;
  }

  private List<String> split(String rest, int lineNumber) throws SbatchFailure {
    List<String> out = new ArrayList<>();
    StringBuilder token = null;
    char quote = 0;
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          token.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        token = token == null ? new StringBuilder() : token;
      } else if (c == '#') {
        break;
      } else if (Character.isWhitespace(c)) {
        if (token != null) {
          out.add(token.toString());
          token = null;
        }
      } else {
        token = token == null ? new StringBuilder() : token;
        token.append(c);
      }
    }
    if (quote != 0) {
      throw SbatchFailure.fatal(origin + ": line " + lineNumber + ": Unmatched `" + quote
          + "` in [" + rest.strip() + "]");
    }
    if (token != null) {
      out.add(token.toString());
    }
    return out;
  }
}
