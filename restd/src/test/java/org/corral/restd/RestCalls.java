package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.ControllerAddress;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.TokenRequest;

/** What the REST tests do again and again: get a token, send a request. */
final class RestCalls {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  private RestCalls() {}

  /** A token from the controller, as `scontrol token [username=U]` run by root gets one. */
  static String token(SlurmConfig cfg, String user) throws Exception {
    Response r = new UnixSocketChannel(ControllerAddress.unixSocket(cfg)).call(Request.newBuilder()
        .setToken(TokenRequest.newBuilder().setUserName(user)).build());
    assertThat(r.getErrorCode()).as(r.getErrorMessage()).isZero();
    return r.getToken().getToken();
  }

  static HttpResponse<String> send(String base, String method, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("X-SLURM-USER-TOKEN", token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
