package org.corral.protocol;

import org.corral.common.SlurmError;
import org.corral.protocol.msg.Response;

/** Building and reading error responses. */
public final class Responses {
  private Responses() {}

  /** A response that carries only an error. */
  public static Response error(SlurmError error, String message) {
    return Response.newBuilder().setErrorCode(error.code()).setErrorMessage(message).build();
  }
}
