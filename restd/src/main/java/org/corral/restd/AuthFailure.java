package org.corral.restd;

/** A request that could not be authenticated: answered 401 "Authentication failure". */
final class AuthFailure extends Exception {
  private static final long serialVersionUID = 1L;

  AuthFailure(String reason) {
    super(reason);
  }
}
