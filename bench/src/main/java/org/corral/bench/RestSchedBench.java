package org.corral.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does REST load stall scheduling? {@code RestSchedBench URL TOKEN SECONDS [CLIENTS] [SDIAG]}:
 * two phases of SECONDS each in one run, against the same queue: quiet (no REST load), then
 * loaded (CLIENTS threads on keep-alive connections, half looping GET /slurm/v0.0.42/jobs, half
 * POSTing held jobs to job/submit). In each phase probe jobs (runnable, {@code true}) are
 * submitted one after another and polled until they leave PENDING: the probe's start latency is
 * what a user sees of the scheduler. The controller's main-scheduler cycle statistics are read
 * from GET /slurm/v0.0.42/diag at each phase's end; when SDIAG (a path to sdiag) is given they are
 * reset ({@code sdiag -r}) at each phase's start, so last/mean/max are the phase's own.
 */
public final class RestSchedBench {
  private static final Pattern NUM = Pattern.compile("\"%s\":(\\d+)");

  private RestSchedBench() {}

  public static void main(String[] args) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String sdiag = args.length > 4 ? args[4] : null;
    phase("quiet", args[0], args[1], Integer.parseInt(args[2]), 0, sdiag, http);
    phase("loaded", args[0], args[1], Integer.parseInt(args[2]), RestBench.intArg(args, 3, 16), sdiag, http);
  }

  private static void phase(String name, String url, String token, int seconds, int clients, String sdiag,
      HttpClient http) throws Exception {
    if (sdiag != null) {
      new ProcessBuilder(sdiag, "-r").inheritIO().start().waitFor();
    }
    String diag0 = get(http, url + "/slurm/v0.0.42/diag", token);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong gets = new AtomicLong();
    AtomicLong posts = new AtomicLong();
    List<Thread> load = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      boolean reader = c % 2 == 0;
      load.add(Thread.ofPlatform().start(() -> hammer(url, token, reader, stop, reader ? gets : posts)));
    }
    List<Long> probes = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    while (System.nanoTime() < end) {
      probes.add(probe(http, url, token));
    }
    stop.set(true);
    for (Thread t : load) {
      t.join();
    }
    String diag = get(http, url + "/slurm/v0.0.42/diag", token);
    long cycles = num(diag, "schedule_cycle_total") - (sdiag == null ? num(diag0, "schedule_cycle_total") : 0);
    long sumUs = num(diag, "schedule_cycle_sum") - (sdiag == null ? num(diag0, "schedule_cycle_sum") : 0);
    long[] p = probes.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf("%s: %d s, %d clients, %d GET /jobs, %d submissions; scheduler cycles %d, last %d us, "
        + "mean %d us, max %d us%s; probe start latency (%d probes) p50 %.1f ms p99 %.1f ms max %.1f ms%n", name,
        seconds, clients, gets.get(), posts.get(), cycles, num(diag, "schedule_cycle_last"),
        cycles == 0 ? 0 : sumUs / cycles, num(diag, "schedule_cycle_max"), sdiag == null ? " (max since reset)" : "",
        p.length, p[p.length / 2] / 1e6, p[(int) Math.min(p.length - 1, Math.ceil(p.length * 0.99) - 1)] / 1e6,
        p[p.length - 1] / 1e6);
  }

  /** One runnable job: nanoseconds from submission to the first poll that sees it out of PENDING. */
  private static long probe(HttpClient http, String url, String token) throws Exception {
    String body = """
        {"job":{"script":"#!/bin/sh\\ntrue\\n","name":"probe","current_working_directory":"/tmp",
         "environment":["PATH=/bin:/usr/bin"],"time_limit":{"set":true,"number":1}}}""";
    long t0 = System.nanoTime();
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.42/job/submit"))
        .header("X-SLURM-USER-TOKEN", token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    long id = num(r.body(), "job_id");
    while (true) {
      String job = get(http, url + "/slurm/v0.0.42/job/" + id, token);
      if (!job.contains("\"job_state\":[\"PENDING\"")) {
        return System.nanoTime() - t0;
      }
      if (System.nanoTime() - t0 > Duration.ofSeconds(60).toNanos()) {
        throw new IllegalStateException("probe " + id + " still pending after 60 s");
      }
      Thread.sleep(5);
    }
  }

  private static void hammer(String url, String token, boolean reader, AtomicBoolean stop, AtomicLong done) {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest req = reader
        ? HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.42/jobs")).header("X-SLURM-USER-TOKEN", token)
            .timeout(Duration.ofSeconds(120)).build()
        : HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.42/job/submit")).header("X-SLURM-USER-TOKEN", token)
            .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString("""
                {"job":{"script":"#!/bin/sh\\ntrue\\n","name":"restload","hold":true,
                 "current_working_directory":"/tmp","environment":["PATH=/bin:/usr/bin"],"time_limit":1}}""")).build();
    while (!stop.get()) {
      try {
        http.send(req, HttpResponse.BodyHandlers.discarding());
        done.incrementAndGet();
      } catch (Exception e) {
        // counted by its absence from done
      }
    }
  }

  private static String get(HttpClient http, String url, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).header("X-SLURM-USER-TOKEN", token).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  private static long num(String json, String field) {
    Matcher m = Pattern.compile(NUM.pattern().formatted(field)).matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }
}
