package org.corral.slurmd.step;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import org.corral.protocol.UserDirectory;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.slurmd.launch.JobConfinement;
import org.corral.slurmd.launch.NodeLauncher;

/** What every step on this node shares: the node's identity, the spool, the launcher, the listener. */
record StepContext(
    String nodeName,
    String hostName,
    String confPath,
    Path stepsDir,
    NodeLauncher launcher,
    Function<LaunchTasksRequest, List<Integer>> jobCpus,
    int killWait,
    Clock clock,
    UserDirectory users,
    StepListener listener,
    JobConfinement confinement,
    List<String> taskHooks,
    org.corral.slurmd.launch.TaskPlugins plugins) {

  StepContext withPlugins(org.corral.slurmd.launch.TaskPlugins p) {
    return new StepContext(nodeName, hostName, confPath, stepsDir, launcher, jobCpus, killWait, clock, users, listener,
        confinement, taskHooks, p);
  }
}
