package org.corral.protocol;

/** A credential that was missing, forged, tampered with, expired, from the future or replayed. */
public final class AuthException extends Exception {
  private static final long serialVersionUID = 1L;

  public AuthException(String message) {
    super(message);
  }
}
