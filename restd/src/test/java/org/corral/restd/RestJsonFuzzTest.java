package org.corral.restd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Job submission bodies, real fields with values of every JSON type and garbage: they parse into
 * a job or end in a {@link RestError} with the client's status, never another exception (a 500
 * of ours).
 */
class RestJsonFuzzTest {
  private static final List<String> FIELDS = List.of("script", "name", "partition", "account",
      "time_limit", "nodes", "tasks", "cpus_per_task", "memory_per_node", "memory_per_cpu",
      "environment", "current_working_directory", "standard_output", "array", "dependency",
      "nice", "priority", "kill_warning_signal", "begin_time", "constraints", "exclusive",
      "hold", "requeue", "minimum_nodes", "maximum_nodes", "tres_per_node", "qos", "comment");

  @Property(tries = 300)
  void submissionsEndInAJobOrAClientError(@ForAll("bodies") String body) {
    try {
      JobSubmission.parse(Json.object(body.getBytes(StandardCharsets.UTF_8)), "fuzzhost");
    } catch (RestError e) {
      // a job without a script is Slurm's 500 with its own error; everything else is the client's
      assertThat(e.status).isIn(400, 413, 422, 500);
    }
  }

  @Property(tries = 200)
  void arbitraryBytesAreRefusedAsJson(@ForAll byte[] body) {
    try {
      JobSubmission.parse(Json.object(body), "fuzzhost");
    } catch (RestError e) {
      assertThat(e.status).isIn(400, 500);
    }
  }

  @Provide
  Arbitrary<String> bodies() {
    Arbitrary<String> value = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(20).map(s -> "\"" + s.replace("\\", "\\\\")
            .replace("\"", "\\\"") + "\""),
        Arbitraries.longs().map(String::valueOf),
        Arbitraries.of("1e400", "-1", "18446744073709551616", "true", "null", "[]", "{}",
            "[\"a\",1]", "{\"number\":5,\"set\":true}", "{\"infinite\":true}", "\"\\u0000\"", "1.5"));
    Arbitrary<String> member = Combinators.combine(Arbitraries.of(FIELDS), value)
        .as((k, v) -> "\"" + k + "\":" + v);
    return member.list().ofMaxSize(8).map(m -> "{\"script\":\"#!/bin/sh\\ntrue\",\"job\":{"
        + String.join(",", m) + "}}");
  }
}
