package org.corral.protocol.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.common.SlurmError;
import org.corral.protocol.msg.JobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginStackTest {
  @TempDir Path dir;

  private PluginStack stack(String text) throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=x\n");
    Files.writeString(dir.resolve("plugstack.conf"), text);
    return PluginStack.forConfig(conf, null, null);
  }

  @Test
  void withoutPlugstackConfThereAreNoPlugins() throws Exception {
    Path conf = dir.resolve("slurm.conf");
    Files.writeString(conf, "ClusterName=x\n");
    assertThat(PluginStack.forConfig(conf, null, null).isEmpty()).isTrue();
  }

  @Test
  void loadsByNameOrSpankPathWithArguments() throws Exception {
    PluginStack s = stack("# site plugins\nrequired /usr/lib/slurm/spank_echo.so a b  # trailing\n");
    assertThat(s.plugins()).hasSize(1);
    assertThat(((EchoPlugin) s.plugins().get(0)).args).containsExactly("a", "b");
    assertThat(s.options("sbatch")).extracting(PluginOption::name).containsExactly("echo-word");
    assertThat(s.options("srun")).extracting(PluginOption::name).containsExactly("echo-word", "echo-loud");
    assertThat(s.ownerOf("echo-loud")).isPresent();
  }

  @Test
  void aMissingRequiredPluginIsAnErrorNamingTheLineAndAnOptionalOneIsSkipped() throws Exception {
    assertThat(stack("optional nosuch\n").isEmpty()).isTrue();
    assertThatThrownBy(() -> stack("optional echo\nrequired nosuch\n")).isInstanceOf(PluginException.class)
        .hasMessageContaining("plugstack.conf line 2: plugin nosuch not found");
    assertThatThrownBy(() -> stack("required echo fail\n")).hasMessageContaining("failed to start: told to fail");
    assertThatThrownBy(() -> stack("mandatory echo\n")).hasMessageContaining("line 1: expected");
  }

  @Test
  void submitFilterChangesOrRefusesTheJob() throws Exception {
    PluginStack s = stack("required echo\n");
    JobDescriptor job = new JobDescriptor(JobSpec.newBuilder().putPluginOptions("echo-word", "hi"), 5, 5, "u");
    s.filterSubmit(job, new SubmitContext(5, "u", List.of()));
    assertThat(job.spec().getComment()).isEqualTo("hi");
    JobDescriptor bad = new JobDescriptor(JobSpec.newBuilder().setComment("forbidden"), 5, 5, "u");
    assertThatThrownBy(() -> s.filterSubmit(bad, new SubmitContext(5, "u", List.of())))
        .isInstanceOfSatisfying(SubmitRefusal.class, r -> assertThat(r.error()).isEqualTo(SlurmError.ACCESS_DENIED));
  }

  @Test
  void taskHookRewritesTheCommandAndEnvironment() throws Exception {
    PluginStack s = stack("required echo\n");
    TaskLaunch t = new TaskLaunch(TaskLaunch.Kind.TASK, 7, "7.0", 0, 5, 5, "u", "n1", "", Map.of("echo-word", "x"),
        dir, dir, "/tmp", List.of("hostname"), List.of("A=1"));
    s.beforeTask(t);
    assertThat(t.command()).containsExactly("/bin/echo", "x", "hostname");
    assertThat(t.environmentList()).containsExactly("A=1", "ECHO_PLUGIN=1");
  }

  @Test
  void jobDescriptorUsesSlurmsFieldNamesAndNoVal() {
    JobDescriptor job = new JobDescriptor(JobSpec.newBuilder(), 5, 6, "u");
    assertThat(job.get("time_limit")).isEqualTo(JobDescriptor.NO_VAL);
    assertThat(job.get("partition")).isNull();
    assertThat(job.get("user_id")).isEqualTo(5L);
    job.set("time_limit", 30L);
    job.set("partition", "p1");
    assertThat(job.spec().getTimeLimitMin()).isEqualTo(30);
    assertThat(job.get("partition")).isEqualTo("p1");
    job.set("time_limit", JobDescriptor.NO_VAL);
    assertThat(job.spec().hasTimeLimitMin()).isFalse();
    assertThatThrownBy(() -> job.set("user_id", 0L)).hasMessageContaining("read-only");
    assertThatThrownBy(() -> job.set("nosuch", 0L)).hasMessageContaining("no field nosuch");
  }

  @Test
  void spankNamesMapToPluginNames() {
    assertThat(PluginStack.nameOf("/usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so")).isEqualTo("pyxis");
    assertThat(PluginStack.nameOf("plugins/acme.jar")).isEqualTo("acme");
    assertThat(PluginStack.nameOf("pyxis")).isEqualTo("pyxis");
  }
}
