package org.corral.restd;

/**
 * A request that could not be authenticated: answered 401 "Authentication failure", as plain
 * text when it carried no credentials at all (Slurm's slurmrestd rejects those before any
 * operation), as Slurm's JSON envelope when a token was given but refused.
 */
final class AuthFailure extends Exception {
  private static final long serialVersionUID = 1L;
  final boolean credentialsGiven;

  AuthFailure(String reason) {
    this(reason, true);
  }

  AuthFailure(String reason, boolean credentialsGiven) {
    super(reason);
    this.credentialsGiven = credentialsGiven;
  }
}
