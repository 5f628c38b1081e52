package org.corral.cli.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.cli.CliCommand;
import org.corral.cli.sinfo.SinfoCommand;
import org.corral.cli.squeue.SqueueCommand;
import org.corral.testkit.SpecValidator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * squeue --json and sinfo --json over the reference state, checked against Slurm's published
 * v0.0.42 schemas (the same check as slurmrestd's responses): the commands print what
 * GET /slurm/v0.0.42/jobs, /nodes and /partitions answer, through the same mapping.
 */
class JsonOutputTest {
  private static final SpecValidator SPEC = SpecValidator.published();
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private static String run(CliCommand command, String program, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    Cli cli = new Cli(program, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("USER", "alice"),
        Clock.fixed(Instant.ofEpochSecond(ReferenceState.t("12:44:00")), ZoneOffset.UTC),
        () -> FakeController.of(ReferenceState.jobs(), ReferenceState.nodes(), ReferenceState.partitions(),
            ReferenceState.t("12:43:50")));
    int rc = command.run(List.of(args), cli);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(rc).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void squeueJsonIsAJobInfoResponse() {
    String out = run(new SqueueCommand(ReferenceState.USERS), "squeue", "--json");
    assertThat(SPEC.validate(out, "v0.0.42_openapi_job_info_resp")).isEmpty();
    JsonNode doc = MAPPER.readTree(out);
    // the jobs squeue lists (its default selection), one object each
    long listed = run(new SqueueCommand(ReferenceState.USERS), "squeue", "-h").lines().count();
    assertThat(doc.path("jobs").size()).isEqualTo(listed).isPositive();
    assertThat(doc.path("meta").path("command").toString()).isEqualTo("[\"squeue\",\"--json\"]");
    assertThat(doc.path("meta").path("plugin").path("data_parser").asString()).isEqualTo("data_parser/v0.0.42");
    assertThat(out).endsWith("}\n");
  }

  @Test
  void sinfoJsonHasNodesAndPartitionsOfTheirResponses() {
    String out = run(new SinfoCommand(ReferenceState.USERS), "sinfo", "--json");
    JsonNode doc = MAPPER.readTree(out);
    // sinfo prints the nodes and the partitions in one document: each part against its response
    var nodes = MAPPER.createObjectNode();
    nodes.set("nodes", doc.get("nodes"));
    nodes.set("last_update", doc.get("last_update"));
    var parts = MAPPER.createObjectNode();
    parts.set("partitions", doc.get("partitions"));
    parts.set("last_update", doc.get("last_update"));
    for (var envelope : List.of(nodes, parts)) {
      envelope.set("meta", doc.get("meta"));
      envelope.set("errors", doc.get("errors"));
      envelope.set("warnings", doc.get("warnings"));
    }
    assertThat(SPEC.validate(nodes, "v0.0.42_openapi_nodes_resp")).isEmpty();
    assertThat(SPEC.validate(parts, "v0.0.42_openapi_partition_resp")).isEmpty();
    assertThat(doc.path("nodes").size()).isEqualTo(4);
    assertThat(doc.path("nodes").get(0).path("state").toString()).isEqualTo("[\"ALLOCATED\"]");
    assertThat(doc.path("nodes").get(3).path("state").toString()).isEqualTo("[\"IDLE\",\"DRAIN\"]");
    assertThat(doc.path("partitions").size()).isEqualTo(2);
  }
}
