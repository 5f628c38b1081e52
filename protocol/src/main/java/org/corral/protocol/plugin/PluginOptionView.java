package org.corral.protocol.plugin;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Set;
import org.corral.protocol.msg.JobSpec;

/** A job request's plugin option values as a changeable map (writes go to the request). */
final class PluginOptionView extends AbstractMap<String, String> {
  private final JobSpec.Builder spec;

  PluginOptionView(JobSpec.Builder spec) {
    this.spec = spec;
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    return new LinkedHashMap<>(spec.getPluginOptionsMap()).entrySet();
  }

  @Override
  public String put(String key, String value) {
    String old = spec.getPluginOptionsMap().get(key);
    spec.putPluginOptions(key, value);
    return old;
  }

  @Override
  public String remove(Object key) {
    String old = spec.getPluginOptionsMap().get(key);
    if (key instanceof String k) {
      spec.removePluginOptions(k);
    }
    return old;
  }
}
