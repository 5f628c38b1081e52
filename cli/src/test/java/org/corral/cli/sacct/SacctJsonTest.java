package org.corral.cli.sacct;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.corral.cli.Cli;
import org.corral.common.SlurmError;
import org.corral.protocol.RpcChannel;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.JobQueryReply;
import org.corral.protocol.msg.Response;
import org.corral.testkit.SpecValidator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * sacct --json over the reference jobs: what GET /slurmdb/v0.0.42/jobs answers (checked against
 * Slurm's published schema, as slurmrestd's responses are), written page by page as slurmdbd
 * sends them, with slurmdbd's refusal in {@code errors}.
 */
class SacctJsonTest {
  private static final SpecValidator SPEC = SpecValidator.published();
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  /** What the command printed and the pages slurmdbd had been asked for when each page was printed. */
  record Run(String out, String err, int rc, List<Integer> printedBeforePage) {}

  /** slurmdbd serving the reference selection {@code pageSize} jobs at a time (or refusing). */
  static Run run(int pageSize, Response refusal, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    List<Integer> printedBeforePage = new ArrayList<>();
    RpcChannel all = SacctGoldenTest.dbd(0);
    RpcChannel paged = new RpcChannel() {
      int page;

      @Override
      public Response call(org.corral.protocol.msg.Request request) throws IOException {
        printedBeforePage.add(out.size());
        if (refusal != null) {
          return refusal;
        }
        List<AcctJob> jobs = all.call(request).getJobQuery().getJobsList();
        int from = page++ * pageSize;
        List<AcctJob> part = jobs.subList(Math.min(from, jobs.size()), Math.min(from + pageSize, jobs.size()));
        return Response.newBuilder().setJobQuery(JobQueryReply.newBuilder().addAllJobs(part)
            .setMore(from + pageSize < jobs.size()).setNextJobId(page)).build();
      }
    };
    Cli cli = new Cli("sacct", new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("USER", "root"),
        Clock.fixed(Instant.ofEpochSecond(ReferenceJobs.NOW), ZoneOffset.UTC),
        () -> { throw new IllegalStateException("sacct never asks the controller"); }, () -> paged);
    int rc = new SacctCommand(SacctGoldenTest.USERS, 0).run(Arrays.asList(args), cli);
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), rc, printedBeforePage);
  }

  @Test
  void jsonIsASlurmdbJobsResponseWrittenPageByPage() {
    Run r = run(3, null, "--json", "-a");
    assertThat(r.err()).isEmpty();
    assertThat(r.rc()).isZero();
    assertThat(SPEC.validate(r.out(), "v0.0.42_openapi_slurmdbd_jobs_resp")).isEmpty();
    JsonNode doc = MAPPER.readTree(r.out());
    assertThat(doc.propertyNames()).containsExactly("jobs", "meta", "errors", "warnings");
    List<String> textJobs = run(1000, null, "-a", "-X", "-n", "-P", "-o", "JobID").out().lines().toList();
    assertThat(doc.path("jobs").size()).isEqualTo(textJobs.size()).isGreaterThan(3);
    assertThat(doc.path("jobs").findValues("steps").stream().mapToInt(JsonNode::size).sum()).isPositive();
    assertThat(doc.path("meta").path("command").toString()).isEqualTo("[\"sacct\",\"--json\",\"-a\"]");
    assertThat(doc.path("meta").path("plugin").path("accounting_storage").asString())
        .isEqualTo("accounting_storage/slurmdbd");
    // each page was printed before the next was asked for; Slurm's sacct ends without a newline
    assertThat(r.printedBeforePage()).hasSizeGreaterThan(2).doesNotHaveDuplicates();
    assertThat(r.out()).endsWith("}");
  }

  @Test
  void withoutStepsTheStepsAreEmpty() {
    JsonNode doc = MAPPER.readTree(run(1000, null, "--json", "-a", "-X").out());
    assertThat(doc.path("jobs").size()).isPositive();
    doc.path("jobs").forEach(j -> assertThat(j.path("steps").isEmpty()).isTrue());
  }

  @Test
  void yamlIsTheSameDocumentInSlurmsYamlLayout() {
    Run yaml = run(1000, null, "--yaml", "-a");
    assertThat(yaml.rc()).isZero();
    assertThat(yaml.err()).isEmpty();
    assertThat(yaml.out()).startsWith("---\njobs:\n- ").endsWith("\n...\n");
    // read back as JSON text, so numbers compare by value whatever type each parser chose
    JsonNode fromYaml = MAPPER.readTree(MAPPER.writeValueAsString(new org.yaml.snakeyaml.Yaml().load(yaml.out())));
    assertThat(SPEC.validate(fromYaml.toString(), "v0.0.42_openapi_slurmdbd_jobs_resp")).isEmpty();
    JsonNode fromJson = MAPPER.readTree(run(1000, null, "--json", "-a").out());
    assertThat(fromYaml.path("meta").path("command").toString()).isEqualTo("[\"sacct\",\"--yaml\",\"-a\"]");
    ((tools.jackson.databind.node.ObjectNode) fromJson.path("meta")).remove("command");
    ((tools.jackson.databind.node.ObjectNode) fromYaml.path("meta")).remove("command");
    assertThat(fromYaml.toString()).isEqualTo(fromJson.toString());
  }

  @Test
  void slurmdbdsRefusalIsInErrors() {
    Response refusal = Response.newBuilder().setErrorCode(SlurmError.ACCESS_DENIED.code())
        .setErrorMessage("no").build();
    Run r = run(1000, refusal, "--json", "-a");
    assertThat(r.rc()).isEqualTo(1);
    assertThat(SPEC.validate(r.out(), "v0.0.42_openapi_slurmdbd_jobs_resp")).isEmpty();
    JsonNode doc = MAPPER.readTree(r.out());
    assertThat(doc.path("jobs").isEmpty()).isTrue();
    assertThat(doc.path("errors").get(0).path("error_number").asInt()).isEqualTo(SlurmError.ACCESS_DENIED.code());
  }
}
