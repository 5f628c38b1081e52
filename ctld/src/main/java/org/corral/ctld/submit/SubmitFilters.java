package org.corral.ctld.submit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.List;
import org.corral.common.config.SlurmConfig;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.PartitionInfo;
import org.corral.protocol.plugin.JobDescriptor;
import org.corral.protocol.plugin.PluginException;
import org.corral.protocol.plugin.PluginStack;
import org.corral.protocol.plugin.SubmitContext;
import org.corral.protocol.plugin.SubmitRefusal;

/**
 * What may change or refuse a job as it is submitted, in Slurm's order: the JobSubmitPlugins
 * (lua: job_submit.lua beside slurm.conf), then the plugins of plugstack.conf. Each sees the job
 * as the one before left it.
 */
public final class SubmitFilters {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  public static final SubmitFilters NONE = new SubmitFilters(null, PluginStack.EMPTY);

  private final LuaJobSubmit lua;
  private final PluginStack plugins;

  SubmitFilters(LuaJobSubmit lua, PluginStack plugins) {
    this.lua = lua;
    this.plugins = plugins;
  }

  /**
   * The filters a slurm.conf names.
   *
   * @throws IOException when job_submit.lua or plugstack.conf is named and cannot be loaded
   */
  public static SubmitFilters load(SlurmConfig cfg) throws IOException {
    LuaJobSubmit lua = null;
    for (String name : cfg.get("JobSubmitPlugins").orElse("").split(",")) {
      String plugin = name.strip().replaceFirst("^job_submit/", "");
      if (plugin.isEmpty()) {
        continue;
      }
      if (plugin.equals("lua")) {
        lua = LuaJobSubmit.load(cfg.path().toAbsolutePath().getParent().resolve("job_submit.lua"));
      } else {
        LOG.log(Level.WARNING, "JobSubmitPlugins: job_submit/" + plugin + " is not available in Corral; ignored");
      }
    }
    PluginStack plugins;
    try {
      plugins = PluginStack.forConfig(cfg.path(), cfg.get("PlugStackConfig").orElse(null),
          cfg.get("PluginDir").orElse(null));
    } catch (PluginException e) {
      throw new IOException(e.getMessage(), e);
    }
    return lua == null && plugins.isEmpty() ? NONE : new SubmitFilters(lua, plugins);
  }

  public boolean isEmpty() {
    return lua == null && plugins.isEmpty();
  }

  /** The job as the filters leave it, or their refusal. */
  public JobSpec apply(JobSpec spec, int uid, int gid, String userName, List<PartitionInfo> partitions)
      throws SubmitRefusal {
    if (isEmpty()) {
      return spec;
    }
    JobDescriptor job = new JobDescriptor(spec.toBuilder(), uid, gid, userName);
    SubmitContext context = new SubmitContext(uid, userName, partitions);
    if (lua != null) {
      lua.submit(job, context);
    }
    plugins.filterSubmit(job, context);
    return job.spec().build();
  }
}
