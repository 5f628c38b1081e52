package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.corral.common.SlurmError;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Hostile bodies: too large (refused from their declared length, before they are read, and not
 * read at all before the sender is authenticated), numbers beyond their fields, a NUL in a
 * string. Each is the client's error (4xx), never the server's (500), and submits nothing.
 */
@Timeout(60)
class RestLimitsTest {
  private static RestCluster cluster;
  private static String root;

  @BeforeAll
  static void start() throws Exception {
    cluster = new RestCluster("SchedulerParameters=max_script_size=1000");
    root = RestCalls.token(cluster.cfg, "");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Sends only the head of a request that declares a 300 MB body; returns the status line. */
  private static String statusOfHugeBody(String token) throws Exception {
    URI base = URI.create(cluster.base);
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /slurm/v0.0.42/job/submit HTTP/1.1\r\nHost: localhost\r\n"
          + (token == null ? "" : "X-SLURM-USER-TOKEN: " + token + "\r\n")
          + "Content-Type: application/json\r\nContent-Length: 300000000\r\n\r\n{\"job\":")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0 && c != '\r') {
        line.append((char) c);
      }
      return line.toString();
    }
  }

  @Test
  void aBodyOverTheLimitIsRefusedFromItsLengthWithoutBeingRead() throws Exception {
    assertThat(statusOfHugeBody(root)).isEqualTo("HTTP/1.1 413 Request Entity Too Large");
  }

  @Test
  void anUnauthenticatedBodyIsNotReadAtAll() throws Exception {
    assertThat(statusOfHugeBody(null)).startsWith("HTTP/1.1 401");
  }

  private static HttpResponse<String> submit(String job) throws Exception {
    return RestCalls.send(cluster.base, "POST", "/slurm/v0.0.42/job/submit", root,
        "{\"job\":{\"current_working_directory\":\"/tmp\",\"environment\":[\"PATH=/bin\"]," + job + "}}");
  }

  private static JsonNode firstError(HttpResponse<String> r) {
    return Json.MAPPER.readTree(r.body()).path("errors").path(0);
  }

  @Test
  void numbersBeyondSixtyFourBitsAreTheClientsError() throws Exception {
    HttpResponse<String> r = submit("\"script\":\"#!/bin/sh\\ntrue\\n\","
        + "\"time_limit\":{\"set\":true,\"number\":123456789012345678901234567890}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(firstError(r).path("description").asString()).contains("time_limit");
  }

  @Test
  void numbersBeyondAThirtyTwoBitFieldAreRefusedNotCut() throws Exception {
    HttpResponse<String> r = submit("\"script\":\"#!/bin/sh\\ntrue\\n\",\"tasks\":" + (1L << 40));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(firstError(r).path("description").asString()).contains("tasks is out of range");
  }

  @Test
  void aNulInTheJobNameIsRefused() throws Exception {
    HttpResponse<String> r = submit("\"script\":\"#!/bin/sh\\ntrue\\n\",\"name\":\"a\\u0000b\"");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(firstError(r).path("error_number").asInt()).isEqualTo(SlurmError.REST_INVALID_JOBS_DESC.code());
    assertThat(firstError(r).path("description").asString()).contains("NUL");
  }

  @Test
  void aScriptOverMaxScriptSizeIsRefusedAsSlurmRefusesIt() throws Exception {
    HttpResponse<String> r = submit("\"script\":\"#!/bin/sh\\n" + "#".repeat(1000) + "\\n\"");
    assertThat(firstError(r).path("error_number").asInt()).as(r.body())
        .isEqualTo(SlurmError.PATHNAME_TOO_LONG.code());
    HttpResponse<String> fits = submit("\"script\":\"#!/bin/sh\\ntrue\\n\",\"hold\":true");
    assertThat(Json.MAPPER.readTree(fits.body()).path("job_id").asInt()).as(fits.body()).isPositive();
  }
}
