package org.corral.protocol.dataparser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared writer: Slurm's pretty layout, slurmrestd's compact one, escapes, streaming. */
class JsonWriterTest {
  private static JsonObject sample() {
    JsonObject o = new JsonObject().put("name", "a\"b\\c\nd\u0001").put("count", 3).put("load", 1.5)
        .put("whole", 2.0).put("ok", true);
    o.set("time", NoVal.limit32(-1));
    o.set("states", List.of("IDLE", "DRAIN"));
    o.putArray("none");
    o.putObject("empty");
    return o;
  }

  @Test
  void prettyIsSlurmsLayout() {
    assertThat(JsonWriter.pretty(sample())).isEqualTo("""
        {
          "name": "a\\"b\\\\c\\nd\\u0001",
          "count": 3,
          "load": 1.5,
          "whole": 2,
          "ok": true,
          "time": {
            "set": false,
            "infinite": true,
            "number": 0
          },
          "states": [
            "IDLE",
            "DRAIN"
          ],
          "none": [],
          "empty": {}
        }""");
  }

  @Test
  void compactIsOneLine() {
    assertThat(JsonWriter.compact(sample())).isEqualTo("{\"name\":\"a\\\"b\\\\c\\nd\\u0001\",\"count\":3,\"load\":1.5,"
        + "\"whole\":2,\"ok\":true,\"time\":{\"set\":false,\"infinite\":true,\"number\":0},"
        + "\"states\":[\"IDLE\",\"DRAIN\"],\"none\":[],\"empty\":{}}");
  }

  @Test
  void streamsTreesIntoAnOpenDocument() {
    StringBuilder sink = new StringBuilder();
    JsonWriter w = new JsonWriter(sink, false).beginObject().key("jobs").beginArray();
    w.value(new JsonObject().put("job_id", 1)).flush();
    assertThat(sink).hasToString("{\"jobs\":[{\"job_id\":1}");
    w.value(new JsonObject().put("job_id", 2)).endArray().key("errors").value(new JsonArray()).endObject().flush();
    assertThat(sink).hasToString("{\"jobs\":[{\"job_id\":1},{\"job_id\":2}],\"errors\":[]}");
  }

  @Test
  void aStreamedArraysItemsAreMadeAsTheyAreWrittenAndGoOutOnTheWay() {
    StringBuilder sink = new StringBuilder();
    List<Integer> sentBeforeEachItem = new java.util.ArrayList<>();
    String big = "x".repeat(40_000);
    JsonArray jobs = JsonArray.streamed(List.of(1, 2, 3), id -> {
      sentBeforeEachItem.add(sink.length());
      return new JsonObject().put("job_id", id).put("script", big);
    });
    new JsonWriter(sink, false).value(new JsonObject().set("jobs", jobs)).flush();
    assertThat(sentBeforeEachItem.get(0)).isZero();
    assertThat(sentBeforeEachItem.get(2)).as("the first two were sent before the third was made").isGreaterThan(80_000);
    assertThat(sink.toString()).startsWith("{\"jobs\":[{\"job_id\":1,").endsWith(",{\"job_id\":3,\"script\":\"" + big + "\"}]}");
    assertThat(jobs.items()).hasSize(3); // read again as a tree, it is made again
    assertThat(JsonWriter.compact(new JsonObject().set("jobs", JsonArray.streamed(List.of(), id -> id)))).isEqualTo("{\"jobs\":[]}");
  }
}
