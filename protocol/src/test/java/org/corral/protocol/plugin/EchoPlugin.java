package org.corral.protocol.plugin;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.SlurmError;

/** A plugin for the tests, found through META-INF/services like any other. */
public final class EchoPlugin implements CorralPlugin {
  List<String> args = new ArrayList<>();

  @Override
  public String name() {
    return "echo";
  }

  @Override
  public void init(List<String> arguments) throws PluginException {
    if (arguments.contains("fail")) {
      throw new PluginException("told to fail");
    }
    args.addAll(arguments);
  }

  @Override
  public List<PluginOption> options() {
    return List.of(new PluginOption("echo-word", "WORD", "a word to echo"),
        new PluginOption("echo-loud", null, "louder", java.util.Set.of("srun")));
  }

  @Override
  public void checkOption(String option, String value) throws PluginException {
    if (option.equals("echo-word") && value.isEmpty()) {
      throw new PluginException("echo: --echo-word: empty word");
    }
  }

  @Override
  public void filterSubmit(JobDescriptor job, SubmitContext context) throws SubmitRefusal {
    if ("forbidden".equals(job.get("comment"))) {
      throw new SubmitRefusal(SlurmError.ACCESS_DENIED, "echo: no");
    }
    String word = job.pluginOptions().get("echo-word");
    if (word != null) {
      job.set("comment", word);
    }
  }

  @Override
  public void beforeTask(TaskLaunch task) {
    List<String> wrapped = new ArrayList<>(List.of("/bin/echo", task.options().getOrDefault("echo-word", "")));
    wrapped.addAll(task.command());
    task.command().clear();
    task.command().addAll(wrapped);
    task.environment().put("ECHO_PLUGIN", "1");
  }
}
