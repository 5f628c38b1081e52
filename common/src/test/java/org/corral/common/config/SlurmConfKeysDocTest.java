package org.corral.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/compatibility.md's list of slurm.conf keys is generated from {@link SlurmConfKeys}: this
 * fails when the two disagree. {@code -Dcorral.writeDocs=true} rewrites the doc's block instead.
 */
class SlurmConfKeysDocTest {
  private static final String BEGIN = "<!-- slurm.conf keys: generated from SlurmConfKeys (SlurmConfKeysDocTest) -->";
  private static final String END = "<!-- end of slurm.conf keys -->";
  private static final Path DOC = Path.of("..", "docs", "compatibility.md");

  @Test
  void compatibilityListsEveryKeyAsTheTableSays() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int from = doc.indexOf(BEGIN);
    int to = doc.indexOf(END);
    assertThat(from).as("docs/compatibility.md has the generated block").isGreaterThanOrEqualTo(0);
    assertThat(to).isGreaterThan(from);
    String block = BEGIN + "\n" + render() + END;
    if (Boolean.getBoolean("corral.writeDocs")) {
      Files.writeString(DOC, doc.substring(0, from) + block + doc.substring(to + END.length()), StandardCharsets.UTF_8);
      return;
    }
    assertThat(doc.substring(from, to + END.length())).isEqualTo(block);
  }

  static String render() {
    List<String> honoured = new ArrayList<>();
    StringBuilder inert = new StringBuilder("| key | default | what Corral does |\n|---|---|---|\n");
    for (ConfKey<?> k : SlurmConfKeys.all()) {
      switch (k.support()) {
        case HONOURED -> honoured.add("`" + k.name() + "`");
        case NOT_IMPLEMENTED -> inert.append("| `").append(k.name()).append("` | ")
            .append(k.dflt() == null ? "" : "`" + k.dflt() + "`").append(" | ").append(k.note()).append(" |\n");
        case SHOWN_ONLY -> { }
      }
    }
    return "Honoured (" + honoured.size() + "): " + String.join(", ", honoured) + ".\n\n"
        + "Read and checked but without effect (a daemon lists the ones a slurm.conf sets, other than to "
        + "their default or to what Corral does anyway, in one warning at start):\n\n" + inert;
  }
}
