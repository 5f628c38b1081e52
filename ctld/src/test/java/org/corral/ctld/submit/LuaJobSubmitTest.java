package org.corral.ctld.submit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.plugin.JobDescriptor;
import org.corral.protocol.plugin.SubmitContext;
import org.corral.protocol.plugin.SubmitRefusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuaJobSubmitTest {
  @TempDir Path dir;

  private static final String SITE_SCRIPT = """
      function slurm_job_submit(job_desc, part_list, submit_uid)
        if job_desc.partition == nil then
          job_desc.partition = "batch"
        end
        if job_desc.time_limit == slurm.NO_VAL then
          slurm.log_user("job from uid %d: a time limit (--time) is required", submit_uid)
          return slurm.ESLURM_INVALID_TIME_LIMIT
        end
        if job_desc.comment == "refuse" then
          return slurm.ERROR
        end
        job_desc.comment = "seen by lua, max_time " .. part_list["batch"].max_time
        return slurm.SUCCESS
      end
      function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
        return slurm.SUCCESS
      end
      """;

  private final SubmitContext context = new SubmitContext(1001, "alice", List.of(
      PartitionInfo.newBuilder().setName("debug").setIsDefault(true).setMaxTimeMin(60).build(),
      PartitionInfo.newBuilder().setName("batch").setMaxTimeMin(120).build()));

  private LuaJobSubmit load(String text) throws IOException {
    Path f = dir.resolve("job_submit.lua");
    Files.writeString(f, text);
    return LuaJobSubmit.load(f);
  }

  private static JobDescriptor job(JobSpec.Builder b) {
    return new JobDescriptor(b, 1001, 1001, "alice");
  }

  @Test
  void setsADefaultPartitionAndSeesTheGivenFields() throws Exception {
    JobDescriptor job = job(JobSpec.newBuilder().setTimeLimitMin(10));
    load(SITE_SCRIPT).submit(job, context);
    assertThat(job.spec().getPartition()).isEqualTo("batch");
    assertThat(job.spec().getComment()).isEqualTo("seen by lua, max_time 120");
    assertThat(job.spec().getTimeLimitMin()).isEqualTo(10);
  }

  @Test
  void keepsAPartitionTheUserNamed() throws Exception {
    JobDescriptor job = job(JobSpec.newBuilder().setPartition("debug").setTimeLimitMin(10));
    load(SITE_SCRIPT).submit(job, context);
    assertThat(job.spec().getPartition()).isEqualTo("debug");
  }

  @Test
  void refusesWithTheScriptsCodeAndItsMessageForTheUser() throws Exception {
    LuaJobSubmit lua = load(SITE_SCRIPT);
    assertThatThrownBy(() -> lua.submit(job(JobSpec.newBuilder()), context))
        .isInstanceOfSatisfying(SubmitRefusal.class, r -> {
          assertThat(r.error()).isEqualTo(SlurmError.INVALID_TIME_LIMIT);
          assertThat(r.getMessage()).isEqualTo("job from uid 1001: a time limit (--time) is required");
        });
    assertThatThrownBy(() -> lua.submit(job(JobSpec.newBuilder().setTimeLimitMin(5).setComment("refuse")), context))
        .isInstanceOfSatisfying(SubmitRefusal.class, r -> {
          assertThat(r.error()).isEqualTo(SlurmError.UNEXPECTED);
          assertThat(r.getMessage()).isEmpty();
        });
  }

  @Test
  void aRuntimeErrorInTheScriptRefusesTheJob() throws Exception {
    LuaJobSubmit lua = load("""
        function slurm_job_submit(job_desc, part_list, submit_uid) return nil + 1 end
        function slurm_job_modify(job_desc, job_rec, part_list, modify_uid) return slurm.SUCCESS end
        """);
    assertThatThrownBy(() -> lua.submit(job(JobSpec.newBuilder()), context))
        .isInstanceOfSatisfying(SubmitRefusal.class, r -> assertThat(r.error()).isEqualTo(SlurmError.UNEXPECTED));
  }

  @Test
  void aScriptWithoutBothFunctionsOrThatDoesNotCompileIsRefusedAtLoad() {
    assertThatThrownBy(() -> load("function slurm_job_submit(a, b, c) return 0 end"))
        .isInstanceOf(IOException.class).hasMessageContaining("missing required function slurm_job_modify");
    assertThatThrownBy(() -> load("function slurm_job_submit(a, b, c) return 0"))
        .isInstanceOf(IOException.class).hasMessageContaining("job_submit.lua");
  }

  @Test
  void aChangedScriptIsReadAgainAndABrokenOneKeepsThePrevious() throws Exception {
    LuaJobSubmit lua = load(SITE_SCRIPT);
    Path f = dir.resolve("job_submit.lua");
    Files.writeString(f, SITE_SCRIPT.replace("\"batch\"\n", "\"debug\"\n"));
    Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() + 5000));
    JobDescriptor job = job(JobSpec.newBuilder().setTimeLimitMin(1));
    lua.submit(job, context);
    assertThat(job.spec().getPartition()).isEqualTo("debug");

    Files.writeString(f, "this is not lua");
    Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() + 10000));
    JobDescriptor again = job(JobSpec.newBuilder().setTimeLimitMin(1));
    lua.submit(again, context);
    assertThat(again.spec().getPartition()).isEqualTo("debug");
  }
}
