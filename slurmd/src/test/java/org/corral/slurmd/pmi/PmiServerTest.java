package org.corral.slurmd.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PMI server over its real socket, spoken to as MPICH's PMI-1 client and a PMI-2 client do,
 * with the answers recorded from Slurm 22.05's mpi/pmi2 (`srun --mpi=pmi2 -N2 -n3`).
 */
class PmiServerTest {
  /** A thread per waiting client: the common pool may have a single one. */
  private static final java.util.concurrent.Executor THREADS = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
  private Path dir;
  private final List<String> errors = new CopyOnWriteArrayList<>();
  private final List<String> aborts = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> sentUp = new CopyOnWriteArrayList<>();
  private PmiServer server;
  private PmiSpace space;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createTempDirectory("pmi");
  }

  @AfterEach
  void tearDown() throws IOException {
    if (server != null) {
      server.close();
    }
    Files.deleteIfExists(dir.resolve("pmi"));
    Files.deleteIfExists(dir);
  }

  /** Tasks 0 and 1 of a 3-task step; {@code alone}: the node runs the whole step. */
  private void serve(boolean alone, List<Integer> tasks, int size) throws IOException {
    space = new PmiSpace(tasks.size(), alone, (round, pairs) -> sentUp.add(pairs));
    server = new PmiServer(dir.resolve("pmi"), new PmiJob("7.0", size, "(vector,(0,1,2),(1,1,1))", "n1"), space, tasks,
        new PmiConnection.Events() {
          @Override
          public void abort(int task, int exitCode, String message) {
            aborts.add(task + " " + exitCode + " " + message);
          }

          @Override
          public void error(int task, String line) {
            errors.add(task + " " + line);
          }
        });
  }

  /** A task's stream, as the launcher connects it. */
  private static final class Client implements AutoCloseable {
    final SocketChannel channel;
    final OutputStream out;
    final InputStream in;
    final BufferedReader lines;

    Client(Path socket, int task) throws IOException {
      channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      channel.connect(UnixDomainSocketAddress.of(socket));
      out = Channels.newOutputStream(channel);
      in = Channels.newInputStream(channel);
      lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      out.write((task + "\n").getBytes(StandardCharsets.UTF_8));
    }

    String pmi1(String line) throws IOException {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      return lines.readLine();
    }

    String pmi2(String body) throws IOException {
      out.write((String.format("%-6d", body.length()) + body).getBytes(StandardCharsets.UTF_8));
      return reply2();
    }

    String reply2() throws IOException {
      char[] length = new char[6];
      read(length);
      char[] body = new char[Integer.parseInt(new String(length).strip())];
      read(body);
      return new String(length) + new String(body);
    }

    private void read(char[] into) throws IOException {
      int at = 0;
      while (at < into.length) {
        int n = lines.read(into, at, into.length - at);
        if (n < 0) {
          throw new IOException("end of stream");
        }
        at += n;
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  @Test
  void pmi1AsMpichSpeaksItOnAStepOfOneNode() throws Exception {
    serve(true, List.of(0, 1), 2);
    try (Client a = new Client(server.socket(), 0); Client b = new Client(server.socket(), 1)) {
      assertThat(a.pmi1("cmd=init pmi_version=1 pmi_subversion=1"))
          .isEqualTo("cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1");
      assertThat(a.pmi1("cmd=get_maxes")).isEqualTo("cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024");
      assertThat(a.pmi1("cmd=get_universe_size")).isEqualTo("cmd=universe_size rc=0 size=2");
      assertThat(a.pmi1("cmd=get_appnum")).isEqualTo("cmd=appnum rc=0 appnum=-1");
      assertThat(a.pmi1("cmd=get_my_kvsname")).isEqualTo("cmd=my_kvsname rc=0 kvsname=7.0");
      assertThat(a.pmi1("cmd=put kvsname=7.0 key=k0 value=v 0")).isEqualTo("cmd=put_result rc=0");
      assertThat(b.pmi1("cmd=put kvsname=7.0 key=k1 value=v1")).isEqualTo("cmd=put_result rc=0");
      CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> ask(a, "cmd=barrier_in"), THREADS);
      Thread.sleep(100);
      assertThat(first).isNotDone(); // until the node's last task enters the fence
      assertThat(b.pmi1("cmd=barrier_in")).isEqualTo("cmd=barrier_out rc=0");
      assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("cmd=barrier_out rc=0");
      assertThat(b.pmi1("cmd=get kvsname=7.0 key=k0")).isEqualTo("cmd=get_result rc=0 value=v 0");
      assertThat(b.pmi1("cmd=get kvsname=7.0 key=nokey")).isEqualTo("cmd=get_result rc=1");
      assertThat(a.pmi1("cmd=get kvsname=7.0 key=PMI_process_mapping"))
          .isEqualTo("cmd=get_result rc=0 value=(vector,(0,1,2),(1,1,1))");
      assertThat(a.pmi1("cmd=put kvsname=7.0 key=" + "k".repeat(65) + " value=v")).startsWith("cmd=put_result rc=-1");
      assertThat(a.pmi1("cmd=finalize")).isEqualTo("cmd=finalize_ack rc=0");
      b.out.write("cmd=bogus\ncmd=abort exitcode=7\n".getBytes(StandardCharsets.UTF_8));
      awaitSize(aborts, 1);
      assertThat(errors).containsExactly("1 slurmstepd-n1: error: mpi/pmi2: invalid pmi1 command received: 'bogus'");
      assertThat(aborts).containsExactly("1 7 ");
    }
    assertThat(sentUp).isEmpty();
  }

  @Test
  void pmi2AfterAnInitAskingForItWithTheFenceGoingThroughSrun() throws Exception {
    serve(false, List.of(0, 1), 3);
    try (Client a = new Client(server.socket(), 0); Client b = new Client(server.socket(), 1)) {
      assertThat(a.pmi1("cmd=init pmi_version=2 pmi_subversion=0"))
          .isEqualTo("cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0");
      assertThat(b.pmi1("cmd=init pmi_version=2 pmi_subversion=0"))
          .isEqualTo("cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0");
      assertThat(a.pmi2("cmd=fullinit;pmijobid=7.0;pmirank=0;threaded=FALSE;")).isEqualTo("114   "
          + "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=0;size=3;appnum=-1;debugged=FALSE;pmiverbose=FALSE;");
      assertThat(a.pmi2("cmd=job-getid;")).isEqualTo("38    cmd=job-getid-response;rc=0;jobid=7.0;");
      assertThat(a.pmi2("cmd=info-getjobattr;key=PMI_process_mapping;"))
          .isEqualTo("76    cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,1,2),(1,1,1));");
      assertThat(a.pmi2("cmd=info-getjobattr;key=universeSize;"))
          .isEqualTo("53    cmd=info-getjobattr-response;rc=0;found=TRUE;value=3;");
      assertThat(a.pmi2("cmd=info-getjobattr;key=nokey;")).endsWith("cmd=info-getjobattr-response;rc=0;found=FALSE;");
      CompletableFuture<String> waiting = CompletableFuture.supplyAsync(
          () -> ask2(b, "cmd=info-getnodeattr;key=na0;wait=TRUE;"), THREADS);
      assertThat(a.pmi2("cmd=info-putnodeattr;key=na0;value=x;;y;")).isEqualTo("35    cmd=info-putnodeattr-response;rc=0;");
      assertThat(waiting.get(5, TimeUnit.SECONDS))
          .isEqualTo("57    cmd=info-getnodeattr-response;rc=0;found=TRUE;value=x;;y;");
      assertThat(a.pmi2("cmd=info-getnodeattr;key=zz;wait=FALSE;"))
          .isEqualTo("47    cmd=info-getnodeattr-response;rc=0;found=FALSE;");
      assertThat(a.pmi2("cmd=kvs-put;key=k0;value=v0;")).isEqualTo("26    cmd=kvs-put-response;rc=0;");
      assertThat(b.pmi2("cmd=kvs-put;key=k1;value=v1;")).isEqualTo("26    cmd=kvs-put-response;rc=0;");
      CompletableFuture<String> fenceA = CompletableFuture.supplyAsync(() -> ask2(a, "cmd=kvs-fence;"), THREADS);
      CompletableFuture<String> fenceB = CompletableFuture.supplyAsync(() -> ask2(b, "cmd=kvs-fence;"), THREADS);
      awaitSize(sentUp, 1);
      assertThat(sentUp.get(0)).containsExactly(Map.entry("k0", "v0"), Map.entry("k1", "v1"));
      assertThat(fenceA).isNotDone();
      // srun's answer: every node's pairs, in two frames
      space.fenceDone(List.of(Map.entry("k0", "v0"), Map.entry("k1", "v1")), false);
      Thread.sleep(50);
      assertThat(fenceB).isNotDone();
      space.fenceDone(List.of(Map.entry("k2", "from the other node")), true);
      assertThat(fenceA.get(5, TimeUnit.SECONDS)).isEqualTo("28    cmd=kvs-fence-response;rc=0;");
      assertThat(fenceB.get(5, TimeUnit.SECONDS)).isEqualTo("28    cmd=kvs-fence-response;rc=0;");
      assertThat(a.pmi2("cmd=kvs-get;jobid=7.0;srcid=-1;key=k2;"))
          .isEqualTo("63    cmd=kvs-get-response;rc=0;found=TRUE;value=from the other node;");
      assertThat(a.pmi2("cmd=kvs-get;jobid=7.0;srcid=-1;key=nokey;")).endsWith("cmd=kvs-get-response;rc=0;found=FALSE;");
      assertThat(a.pmi2("cmd=spawn;ncmds=1;subcmd=x;maxprocs=1;argc=0;"))
          .contains("cmd=spawn-response;rc=-1;errmsg=spawn is not supported by Corral;");
      assertThat(a.pmi2("cmd=finalize;")).isEqualTo("27    cmd=finalize-response;rc=0;");
      b.out.write("40    cmd=abort;isworldabort=TRUE;msg=bye now;".getBytes(StandardCharsets.UTF_8));
      awaitSize(aborts, 1);
      assertThat(aborts).containsExactly("1 1 bye now");
    }
  }

  @Test
  void aConnectionForATaskOfAnotherNodeOrASecondOneIsRefused() throws Exception {
    serve(true, List.of(0), 1);
    try (Client other = new Client(server.socket(), 5)) {
      assertThat(other.lines.readLine()).isNull();
    }
    try (Client a = new Client(server.socket(), 0)) {
      assertThat(a.pmi1("cmd=init pmi_version=1 pmi_subversion=1")).startsWith("cmd=response_to_init rc=0");
      Client again = new Client(server.socket(), 0);
      assertThat(again.lines.readLine()).isNull();
      again.close();
    }
  }

  @Test
  void aFenceStillWaitingEndsWithTheStep() throws Exception {
    serve(false, List.of(0, 1), 4);
    try (Client a = new Client(server.socket(), 0)) {
      a.pmi1("cmd=init pmi_version=1 pmi_subversion=1");
      CompletableFuture<String> fence = CompletableFuture.supplyAsync(() -> ask(a, "cmd=barrier_in"), THREADS);
      Thread.sleep(50);
      server.close();
      assertThat(fence.get(5, TimeUnit.SECONDS)).isNull();
    }
  }

  private static String ask(Client c, String line) {
    try {
      return c.pmi1(line);
    } catch (IOException e) {
      return null;
    }
  }

  private static String ask2(Client c, String body) {
    try {
      return c.pmi2(body);
    } catch (IOException e) {
      return null;
    }
  }

  private static void awaitSize(List<?> list, int size) throws InterruptedException {
    for (int i = 0; i < 500 && list.size() < size; i++) {
      Thread.sleep(10);
    }
    assertThat(list).hasSize(size);
  }
}
