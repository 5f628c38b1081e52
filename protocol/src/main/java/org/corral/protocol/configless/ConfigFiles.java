package org.corral.protocol.configless;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.corral.protocol.msg.ConfigFile;

/**
 * The files a configless controller ({@code SlurmctldParameters=enable_configless}) serves: slurm.conf
 * and, where they exist beside it, the other files Slurm serves its daemons. Never slurm.key, the
 * job scripts or anything else in the directory.
 */
public final class ConfigFiles {
  /** Slurm's list (slurm.conf first), in the order it sends them. */
  public static final List<String> NAMES = List.of("slurm.conf", "acct_gather.conf", "cgroup.conf",
      "cgroup_allowed_devices_file.conf", "ext_sensors.conf", "gres.conf", "helpers.conf", "job_container.conf",
      "knl_cray.conf", "knl_generic.conf", "mpi.conf", "oci.conf", "plugstack.conf", "topology.conf");
  /** The most one file may hold: a configuration file, not a data set. */
  public static final int MAX_FILE_BYTES = 4 << 20;

  private ConfigFiles() {}

  /** The files of {@code slurmConf}'s directory that Slurm serves (slurm.conf always). */
  public static List<ConfigFile> read(Path slurmConf) throws IOException {
    List<ConfigFile> out = new ArrayList<>();
    for (String name : NAMES) {
      Path p = name.equals("slurm.conf") ? slurmConf : slurmConf.resolveSibling(name);
      if (name.equals("slurm.conf") || Files.isRegularFile(p)) {
        if (Files.size(p) > MAX_FILE_BYTES) {
          throw new IOException(p + ": larger than " + MAX_FILE_BYTES + " bytes");
        }
        out.add(ConfigFile.newBuilder().setName(name).setContent(ByteString.copyFrom(Files.readAllBytes(p))).build());
      }
    }
    return out;
  }
}
