package org.corral.protocol.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.corral.protocol.plugin.PluginException;
import org.junit.jupiter.api.Test;

class ContainerConfigTest {

  @Test
  void ociConfReadsSlurmsKeysCaseInsensitiveWithQuotesAndComments() throws Exception {
    OciConf c = OciConf.parse(List.of("# runc, run form",
        "RunTimeRun=\"runc --rootless=true --root=/tmp/ run %n.%u.%j.%s.%t -b %b\"  # suggested",
        "runtimedelete=\"runc delete --force %n.%u.%j.%s.%t\"", "RunTimeEnvExclude=\"^(SECRET|TOKEN)_.*\"",
        "MountSpoolDir=/run/slurm"), "oci.conf");
    assertThat(c.run()).isEqualTo("runc --rootless=true --root=/tmp/ run %n.%u.%j.%s.%t -b %b");
    assertThat(c.delete()).isEqualTo("runc delete --force %n.%u.%j.%s.%t");
    assertThat(c.mountSpoolDir()).isEqualTo("/run/slurm");
    assertThat(c.excludes("SECRET_A")).isTrue();
    assertThat(c.excludes("MY_SECRET_A")).isFalse();
  }

  @Test
  void ociConfWithoutARunOrCreateAndStartOrWithUnknownKeysIsRefused() {
    assertThatThrownBy(() -> OciConf.parse(List.of("RunTimeQuery=x"), "oci.conf")).isInstanceOf(IOException.class)
        .hasMessageContaining("RunTimeRun, or RunTimeCreate and RunTimeStart, must be set");
    assertThatThrownBy(() -> OciConf.parse(List.of("RunTimeRun=x", "Bogus=1"), "oci.conf"))
        .hasMessageContaining("oci.conf line 2: unknown key Bogus");
    assertThatThrownBy(() -> OciConf.parse(List.of("RunTimeRun=x", "RunTimeEnvExclude=(("), "oci.conf"))
        .hasMessageContaining("not a regular expression");
  }

  @Test
  void patternsAreReplacedAndQuotedSoNoValueRunsAsCode() {
    String s = OciPattern.expand("crun run --bundle %b %n.%u.%j.%s.%t %%x %Q -- %@",
        Map.of('b', "/spool/b 1", 'n', "n1", 'u', "o'brien", 'j', "7", 's', "0", 't', "3"),
        List.of("echo", "$(rm -rf /)"));
    assertThat(s).isEqualTo("crun run --bundle '/spool/b 1' 'n1'.'o'\\''brien'.'7'.'0'.'3' %x %Q -- 'echo' "
        + "'$(rm -rf /)'");
  }

  @Test
  void containerMountsAreParsedWithPyxissMessages() throws Exception {
    assertThat(PyxisPlugin.parseMounts("/a:/b:ro+rprivate,/c,tmpfs:/scratch")).containsExactly(
        new OciSpec.Mount("/a", "/b", List.of("ro", "rprivate")), new OciSpec.Mount("/c", "/c", List.of()),
        new OciSpec.Mount("tmpfs", "/scratch", List.of()));
    assertThatThrownBy(() -> PyxisPlugin.parseMounts(":/x")).isInstanceOf(PluginException.class)
        .hasMessage("pyxis: --container-mounts: invalid format: :/x");
    assertThatThrownBy(() -> PyxisPlugin.parseMounts("/a:")).hasMessage("pyxis: --container-mounts: invalid format: /a:");
    assertThatThrownBy(() -> PyxisPlugin.parseMounts("data:/x"))
        .hasMessage("pyxis: mount source must be a relative path, an absolute path, \"tmpfs\" or \"umount\"");
    assertThatThrownBy(() -> PyxisPlugin.parseMounts("/a:x"))
        .hasMessage("pyxis: mount target must be a relative path or an absolute path");
    assertThatThrownBy(() -> new PyxisPlugin().checkOption("container-name", "n:sometimes"))
        .hasMessage("pyxis: --container-name: flag must be \"auto\", \"create\", \"exec\" or \"no_exec\"");
    assertThatThrownBy(() -> new PyxisPlugin().checkOption("container-env", "A,,B"))
        .hasMessage("pyxis: --container-env: invalid format: A,,B");
  }

  @Test
  void theGeneratedConfigMapsOnlyTheUsersIdAndNamesTheBinds() {
    String json = new OciSpec().user(1003, 1004, false).args(List.of("id", "-u")).env(List.of("A=\"q\""))
        .cwd("/data").mount(new OciSpec.Mount("/home/a", "/data", List.of("ro"))).toJson();
    assertThat(json).contains("\"uidMappings\":[{\"containerID\":1003,\"hostID\":1003,\"size\":1}]",
        "\"args\":[\"id\",\"-u\"]", "\"env\":[\"A=\\\"q\\\"\"]", "\"cwd\":\"/data\"",
        "\"root\":{\"path\":\"@CORRAL_ROOTFS@\",\"readonly\":true}",
        "{\"destination\":\"/data\",\"type\":\"none\",\"source\":\"/home/a\",\"options\":[\"rbind\",\"nosuid\",\"ro\"]}");
    assertThat(new OciSpec().user(1003, 1004, true).toJson())
        .contains("\"uidMappings\":[{\"containerID\":0,\"hostID\":1003,\"size\":1}]", "\"user\":{\"uid\":0,\"gid\":0}");
  }
}
