package org.corral.slurmd.step;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.corral.protocol.PmiFrames;
import org.corral.protocol.StepIds;
import org.corral.protocol.StepTaskIds;
import org.corral.protocol.msg.IoData;
import org.corral.protocol.msg.IoFrame;
import org.corral.protocol.msg.LaunchTasksRequest;
import org.corral.protocol.msg.PmiFence;
import org.corral.slurmd.pmi.PmiConnection;
import org.corral.slurmd.pmi.PmiJob;
import org.corral.slurmd.pmi.PmiServer;
import org.corral.slurmd.pmi.PmiSpace;
import org.corral.slurmd.pmi.ProcessMapping;

/**
 * A step's --mpi=pmi2 wire-up on this node: its PMI server (a socket in the step's spool
 * directory), whose fences go to srun over the step's I/O connection and come back from it
 * (docs/adr/0011), and whose errors go to the task's stderr as slurmstepd's do.
 */
final class StepPmi implements AutoCloseable {
  /** Where the socket lives, inside the step's directory. */
  static final String SOCKET = "pmi";
  /** sun_path holds 108 bytes, the last a NUL. */
  private static final int MAX_SOCKET_PATH = 107;

  /** What a task's abort does to the step. */
  interface Abort {
    void abort(int task, int exitCode, String message);
  }

  private final PmiServer server;
  private final PmiSpace space;

  private StepPmi(PmiServer server, PmiSpace space) {
    this.server = server;
    this.space = space;
  }

  /** The step's PMI server when it asked for one (--mpi=pmi2), else null. */
  static StepPmi startIfAsked(LaunchTasksRequest request, Path stepDir, String nodeName, IoConnection io, Abort abort)
      throws IOException {
    if (!"pmi2".equals(request.getSpec().getMpi())) {
      return null;
    }
    Path socket = stepDir.resolve(SOCKET);
    if (socket.toString().length() > MAX_SOCKET_PATH) {
      throw new IOException("mpi/pmi2: the step's socket path " + socket + " is longer than " + MAX_SOCKET_PATH
          + " bytes (SlurmdSpoolDir too deep)");
    }
    Files.createDirectories(stepDir);
    var step = request.getStep();
    List<List<Integer>> byNode = StepTaskIds.byNode(step);
    int size = step.getNumTasks() > 0 ? step.getNumTasks() : byNode.stream().mapToInt(List::size).sum();
    String kvsName = Integer.toUnsignedString(request.getJob().getJobId()) + "." + StepIds.name(step.getStepId());
    PmiJob job = new PmiJob(kvsName, size, ProcessMapping.of(byNode), nodeName);
    List<Integer> here = request.getTaskIdsList();
    PmiSpace space = new PmiSpace(here.size(), byNode.size() <= 1,
        (round, pairs) -> PmiFrames.fence(round, pairs).forEach(io::send));
    PmiServer server = new PmiServer(socket, job, space, here, new PmiConnection.Events() {
      @Override
      public void abort(int task, int exitCode, String message) {
        abort.abort(task, exitCode, message);
      }

      @Override
      public void error(int task, String line) {
        io.send(IoFrame.newBuilder().setStderr(IoData.newBuilder().setTask(task)
            .setData(ByteString.copyFromUtf8(line + "\n"))).build());
      }
    });
    return new StepPmi(server, space);
  }

  Path socket() {
    return server.socket();
  }

  /** A frame of srun's answer to a fence. */
  void fenceDone(PmiFence fence) {
    space.fenceDone(fence.getPairsList().stream().map(p -> Map.entry(p.getKey(), p.getValue())).toList(),
        fence.getLast());
  }

  @Override
  public void close() {
    server.close();
  }
}
