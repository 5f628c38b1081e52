package org.corral.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.corral.protocol.UnixSocketChannel;
import org.corral.protocol.msg.JobSpec;
import org.corral.protocol.msg.Request;
import org.corral.protocol.msg.Response;
import org.corral.protocol.msg.SubmitJobRequest;

/**
 * Durable submissions per second: CLIENTS threads submit held jobs (so nothing runs) over the
 * controller's local socket, each waiting for its acknowledgement (journaled and fsynced).
 * Usage: SubmitLoad SOCKET CLIENTS TOTAL. Prints rate and latency percentiles.
 */
public final class SubmitLoad {
  private SubmitLoad() {}

  public static void main(String[] args) throws Exception {
    Path socket = Path.of(args[0]);
    int clients = Integer.parseInt(args[1]);
    int total = Integer.parseInt(args[2]);
    JobSpec spec = JobSpec.newBuilder().setName("bench").setScript("#!/bin/sh\ntrue\n")
        .setWorkDir("/tmp").setHold(true).addEnvironment("PATH=/usr/bin:/bin")
        .addEnvironment("HOME=/root").build();
    Request req = Request.newBuilder().setSubmitJob(SubmitJobRequest.newBuilder().setSpec(spec)).build();
    // Warm up connections and the JIT a little.
    run(socket, clients, Math.min(total / 10, 2000), req);
    long[] lat = new long[total];
    long t0 = System.nanoTime();
    int failed = run(socket, clients, total, req, lat);
    double secs = (System.nanoTime() - t0) / 1e9;
    Arrays.sort(lat);
    System.out.printf("clients=%d submissions=%d failed=%d seconds=%.2f rate=%.0f/s p50=%.2fms p99=%.2fms max=%.2fms%n",
        clients, total, failed, secs, total / secs, lat[total / 2] / 1e6, lat[(int) (total * 0.99)] / 1e6,
        lat[total - 1] / 1e6);
  }

  private static int run(Path socket, int clients, int total, Request req) throws Exception {
    return run(socket, clients, total, req, new long[total]);
  }

  private static int run(Path socket, int clients, int total, Request req, long[] lat) throws Exception {
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
