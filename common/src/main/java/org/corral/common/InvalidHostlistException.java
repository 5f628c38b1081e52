package org.corral.common;

/** A hostlist expression that cannot be expanded; the message is Slurm's "Invalid hostlist: EXPR". */
public final class InvalidHostlistException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String expression;
  private final String reason;

  public InvalidHostlistException(String expression, String reason) {
    super("Invalid hostlist: " + expression);
    this.expression = expression;
    this.reason = reason;
  }

  /** The expression as given. */
  public String expression() {
    return expression;
  }

  /** What is wrong with it, e.g. {@code invalid range '3-1'}. */
  public String reason() {
    return reason;
  }
}
