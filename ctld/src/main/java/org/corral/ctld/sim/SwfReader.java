package org.corral.ctld.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Standard Workload Format (Parallel Workloads Archive): one job per line, 18
 * whitespace-separated fields, ';' comments. Used: 1 job number, 2 submit time, 4 run time,
 * 5 allocated processors (8 requested processors when given), 9 requested time (the run time
 * when missing), 12 user. Jobs that never ran (run time or processors -1) are left out.
 */
public final class SwfReader {
  private SwfReader() {}

  public static List<SimJob> read(Path file) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(file)) {
      return parse(r, file.toString());
    }
  }

  static List<SimJob> parse(BufferedReader r, String name) throws IOException {
    List<SimJob> jobs = new ArrayList<>();
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith(";")) {
        continue;
      }
      String[] f = t.split("\\s+");
      if (f.length < 18) {
        throw new IOException(name + " line " + n + ": " + f.length + " fields, the Standard Workload Format has 18");
      }
      try {
        long submit = Long.parseLong(f[1]);
        long run = Long.parseLong(f[3]);
        long procs = Long.parseLong(f[7]) > 0 ? Long.parseLong(f[7]) : Long.parseLong(f[4]);
        long requested = Long.parseLong(f[8]);
        if (run < 0 || procs <= 0) {
          continue;
        }
        jobs.add(new SimJob(Integer.parseInt(f[0]), submit, (int) procs, run,
            requested > 0 ? Math.max(requested, 1) : Math.max(run, 1), Math.max(0, Integer.parseInt(f[11]))));
      } catch (NumberFormatException e) {
        throw new IOException(name + " line " + n + ": not a number: " + e.getMessage());
      }
    }
    jobs.sort((a, b) -> Long.compare(a.submit(), b.submit()));
    return jobs;
  }
}
