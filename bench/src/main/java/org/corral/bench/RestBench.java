package org.corral.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * slurmrestd under load: {@code RestBench URL TOKEN SUBMISSIONS [CLIENTS] [GETS]}. CLIENTS
 * threads (default 16), each with its own keep-alive HTTP/1.1 connection, POST held jobs to
 * /slurm/v0.0.42/job/submit until SUBMISSIONS are acknowledged; then GETS sequential GET
 * /slurm/v0.0.42/jobs with every job in the queue. Prints rate and latency percentiles.
 */
public final class RestBench {
  private RestBench() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String token = args[1];
    int total = Integer.parseInt(args[2]);
    int clients = intArg(args, 3, 16);
    int gets = intArg(args, 4, 20);
    String body = """
        {"job":{"script":"#!/bin/sh\\ntrue\\n","name":"restbench","hold":true,"current_working_directory":"/tmp",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":1}}""";
    long[] lat = new long[total];
    AtomicInteger next = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      threads.add(Thread.ofPlatform().start(() -> {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.42/job/submit"))
            .header("X-SLURM-USER-TOKEN", token).header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        int i;
        while ((i = next.getAndIncrement()) < total) {
          long s = System.nanoTime();
          try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"job_id\"")) {
              failed.incrementAndGet();
            }
          } catch (Exception e) {
            failed.incrementAndGet();
          }
          lat[i] = System.nanoTime() - s;
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf("submissions %d clients %d failed %d: %.0f/s%n", total, clients, failed.get(), total / secs);
    report("submit", lat);
    if (gets == 0) {
      return;
    }

    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest get = HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.42/jobs"))
        .header("X-SLURM-USER-TOKEN", token).timeout(Duration.ofSeconds(120)).build();
    long[] g = new long[gets];
    int size = 0;
    for (int i = 0; i < gets; i++) {
      long s = System.nanoTime();
      HttpResponse<byte[]> r = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
      g[i] = System.nanoTime() - s;
      size = r.body().length;
    }
    System.out.printf("GET /jobs: %d bytes%n", size);
    report("get-jobs", g);
  }

  /** args[i] as a number, or {@code otherwise} when it is not given. */
  static int intArg(String[] args, int i, int otherwise) {
    return args.length > i ? Integer.parseInt(args[i]) : otherwise;
  }

  private static void report(String what, long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    System.out.printf("%s p50 %.2f ms p99 %.2f ms max %.2f ms%n", what, s[s.length / 2] / 1e6,
        s[(int) Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] / 1e6, s[s.length - 1] / 1e6);
  }
}
