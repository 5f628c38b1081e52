package org.corral.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.JobInfoRequest;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.JobState;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;

/**
 * Durable submissions per second: CLIENTS threads submit held jobs (so nothing runs) over the
 * controller's local socket, each waiting for its acknowledgement (journaled and fsynced).
 * Usage: SubmitLoad SOCKET CLIENTS TOTAL [run]. Prints rate and latency percentiles. With
 * {@code run} the jobs ({@code true}) are not held: it then also times how long the cluster
 * takes to run them all, the daemons' side of the end-to-end benchmark without CLI start-up.
 * With {@code array} (CLIENTS is ignored) one job array of TOTAL tasks of {@code true} is
 * submitted, as {@code sbatch --array=1-TOTAL}, and timed until none of its tasks is pending,
 * running or completing. With {@code flood BYTES} held jobs carry an environment of about BYTES
 * (what sbatch exports from a login shell, the same for every job) and there is no warm-up, so
 * that the queue grows by exactly TOTAL (bench/scale/flood.sh).
 */
public final class SubmitLoad {
  private SubmitLoad() {}

  public static void main(String[] args) throws Exception {
    Path socket = Path.of(args[0]);
    int clients = Integer.parseInt(args[1]);
    int total = Integer.parseInt(args[2]);
    if (args.length > 3 && args[3].equals("array")) {
      runArray(socket, total);
      return;
    }
    boolean runJobs = args.length > 3 && args[3].equals("run");
    boolean flood = args.length > 4 && args[3].equals("flood");
    JobSpec.Builder b = JobSpec.newBuilder().setName("bench").setScript("#!/bin/sh\ntrue\n")
        .setWorkDir("/tmp").setStdOut("/dev/null").setHold(!runJobs)
        .addEnvironment("PATH=/usr/bin:/bin").addEnvironment("HOME=/root");
    if (flood) {
      int bytes = Integer.parseInt(args[4]);
      for (int i = 0; bytes > 0; i++) {
        String e = "BENCH_VAR_" + i + "=" + "v".repeat(Math.max(0, Math.min(100, bytes - 16)));
        b.addEnvironment(e);
        bytes -= e.length() + 1;
      }
    }
    JobSpec spec = b.build();
    Request req = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec)).build();
    if (!runJobs && !flood) { // warm up connections and the JIT a little
      run(socket, clients, Math.min(total / 10, 2000), req);
    }
    long[] lat = new long[total];
    long t0 = System.nanoTime();
    Set<Integer> submitted = ConcurrentHashMap.newKeySet();
    int failed = run(socket, clients, total, req, lat, submitted);
    double secs = (System.nanoTime() - t0) / 1e9;
    Arrays.sort(lat);
    System.out.printf("clients=%d submissions=%d failed=%d seconds=%.2f rate=%.0f/s p50=%.2fms p99=%.2fms max=%.2fms%n",
        clients, total, failed, secs, total / secs, lat[total / 2] / 1e6, lat[(int) (total * 0.99)] / 1e6,
        lat[total - 1] / 1e6);
    if (runJobs) {
      awaitDrained(new UnixSocketChannel(socket), submitted);
      double all = (System.nanoTime() - t0) / 1e9;
      System.out.printf("all %d jobs ran and ended after %.2f s: %.1f jobs/s%n", total, all, total / all);
    }
  }

  private static void runArray(Path socket, int total) throws Exception {
    JobSpec spec = JobSpec.newBuilder().setName("bench").setScript("#!/bin/sh\ntrue\n")
        .setWorkDir("/tmp").setStdOut("/dev/null").setArray("1-" + total)
        .addEnvironment("PATH=/usr/bin:/bin").addEnvironment("HOME=/root").build();
    UnixSocketChannel ch = new UnixSocketChannel(socket);
    long t0 = System.nanoTime();
    Response r = ch.call(Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec)).build());
    if (r.getErrorCode() != 0) {
      throw new IllegalStateException("the array was refused: error " + r.getErrorCode());
    }
    int arrayId = r.getSubmitJob().getJobId();
    // The array's id names its record and its started tasks, as `squeue -j ID` polls the
    // reference: a poll of every job the controller still remembers (the warm-up's too) would
    // be a load of its own.
    Request all = Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addJobIds(arrayId)).build();
    boolean busy = true;
    while (busy) {
      Thread.sleep(100);
      busy = false;
      for (JobInfo j : ch.call(all).getJobInfo().getJobsList()) {
        if ((j.getJobId() == arrayId || j.getArrayJobId() == arrayId)
            && (j.getState() == JobState.PENDING || j.getState() == JobState.RUNNING || j.getCompleting())) {
          busy = true;
          break;
        }
      }
    }
    double all2 = (System.nanoTime() - t0) / 1e9;
    System.out.printf("all %d array tasks ran and ended after %.2f s: %.1f tasks/s%n", total, all2, total / all2);
  }

  /**
   * Polls until none of the submitted jobs is pending, running or completing. Each poll asks
   * only for the jobs not seen finished yet, so the poller costs the controller little (a poll
   * of the whole queue ten times a second would be a load of its own).
   */
  private static void awaitDrained(UnixSocketChannel ch, Set<Integer> submitted) throws Exception {
    Set<Integer> left = new TreeSet<>(submitted);
    while (!left.isEmpty()) {
      Request info = Request.newBuilder().setJobInfo(JobInfoRequest.newBuilder().addAllJobIds(left)).build();
      for (JobInfo j : ch.call(info).getJobInfo().getJobsList()) {
        if (j.getState() != JobState.PENDING && j.getState() != JobState.RUNNING && !j.getCompleting()) {
          left.remove(j.getJobId());
        }
      }
      if (!left.isEmpty()) {
        Thread.sleep(50);
      }
    }
  }

  private static int run(Path socket, int clients, int total, Request req) throws Exception {
    return run(socket, clients, total, req, new long[total], ConcurrentHashMap.newKeySet());
  }

  private static int run(Path socket, int clients, int total, Request req, long[] lat, Set<Integer> ids)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      threads.add(Thread.ofPlatform().start(() -> {
        UnixSocketChannel ch = new UnixSocketChannel(socket);
        int i;
        while ((i = next.getAndIncrement()) < total) {
          long s = System.nanoTime();
          try {
            Response r = ch.call(req);
            if (r.getErrorCode() != 0) {
              failed.incrementAndGet();
            } else {
              ids.add(r.getSubmitJob().getJobId());
            }
          } catch (IOException e) {
            failed.incrementAndGet();
          }
          lat[i] = System.nanoTime() - s;
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    return failed.get();
  }
}
