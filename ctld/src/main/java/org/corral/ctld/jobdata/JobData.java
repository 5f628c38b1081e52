package org.corral.ctld.jobdata;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.corral.ctld.state.ClusterState;
import org.corral.ctld.state.Command;
import org.corral.protocol.msg.JobRecord;
import org.corral.protocol.msg.JobSpec;

/**
 * Jobs' batch scripts and environments, kept out of the controller's memory as Slurm keeps them
 * (a file of their own each) but content-addressed: the journal, snapshots and in-memory state
 * hold only {@code JobSpec.script_ref}/{@code environment_ref}, and an array's or a workflow's
 * identical scripts are one file.
 *
 * <p>Durability: {@link #store} writes and syncs the files before the submission that names them
 * is journaled, so an acknowledged job always has its script. A file stays while a job record
 * names it (counted here, by the writer thread, from the commands it applies) or a submission
 * holding it is in flight (a pin); it is deleted once neither holds and the purge that freed it
 * is durable. A crash between writing a file and journaling its job leaves a file that nothing
 * names: {@link #recover} deletes those at the next start, and counts the references again.
 */
public final class JobData {
  private static final System.Logger LOG = System.getLogger("slurmctld");

  private record Pin(CompletableFuture<Void> durable, int holders) {}

  private final JobDataFiles files;
  private final Map<String, Integer> references = new HashMap<>(); // guarded by this
  private final Map<String, Pin> pins = new HashMap<>(); // guarded by this
  private final List<String> unreferenced = new ArrayList<>(); // writer thread only

  private JobData(JobDataFiles files) {
    this.files = files;
  }

  /** Hands a newly stored file to the other controllers before the submission naming it is logged. */
  @FunctionalInterface
  public interface Replicator {
    void replicate(String hash, byte[] content) throws IOException;
  }

  private volatile Replicator replicator = (hash, content) -> { };

  /** Sets where new files are replicated (the replicated log's leader); none by default. */
  public void replicateTo(Replicator r) {
    this.replicator = r;
  }

  /** Stores a file another controller replicated (a follower, applying the log), checked against its name. */
  public void put(String hash, byte[] content) throws IOException {
    if (!JobDataFiles.isHash(hash) || !JobDataFiles.hash(content).equals(hash)) {
      throw new IOException("replicated job data does not match its name " + hash);
    }
    files.writeIfAbsent(hash, content);
  }

  /** The store in {@code dir} (StateSaveLocation/job_data), created 0700 if needed. */
  public static JobData open(Path dir) throws IOException {
    return new JobData(new JobDataFiles(dir));
  }

  /**
   * Counts what the recovered state references and deletes the files nothing references (a
   * crash before their job was journaled, or after its purge was). Before the controller serves.
   *
   * @return how many files were deleted
   */
  public synchronized int recover(ClusterState s) throws IOException {
    references.clear();
    for (JobRecord r : s.jobs().values()) {
      count(r.getSpec(), +1);
    }
    int deleted = 0;
    for (String hash : files.recoverAll()) {
      if (!references.containsKey(hash)) {
        files.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }

  /** A submission's spec with its script and environment stored; close it once the submission is answered. */
  public final class Stored implements AutoCloseable {
    private final JobSpec spec;
    private final List<String> held;

    private Stored(JobSpec spec, List<String> held) {
      this.spec = spec;
      this.held = held;
    }

    public JobSpec spec() {
      return spec;
    }

    /** Lets the files go unless the submission's job now names them. */
    @Override
    public void close() {
      held.forEach(JobData.this::unpin);
    }
  }

  /**
   * Writes the script and environment of a submission (unless identical ones are stored) and
   * returns the spec naming them instead. A blank script or an allocation's is left inline for
   * the submission's checks to refuse or pass as before.
   */
  public Stored store(JobSpec spec) throws IOException {
    List<String> held = new ArrayList<>(2);
    JobSpec.Builder b = spec.toBuilder();
    try {
      if (!spec.getInteractive() && !spec.getScript().isBlank()) {
        b.clearScript().setScriptRef(pin(spec.getScript().getBytes(StandardCharsets.UTF_8), held));
      }
      if (spec.getEnvironmentCount() > 0) {
        b.clearEnvironment().setEnvironmentRef(pin(encode(spec.getEnvironmentList()), held));
      }
    } catch (IOException | RuntimeException e) {
      held.forEach(this::unpin);
      throw e;
    }
    return new Stored(b.build(), held);
  }

  /** The spec with its script and environment read back, as a node needs it to launch the job. */
  public JobSpec complete(JobSpec spec) throws IOException {
    if (spec.getScriptRef().isEmpty() && spec.getEnvironmentRef().isEmpty()) {
      return spec;
    }
    JobSpec.Builder b = spec.toBuilder().clearScriptRef().clearEnvironmentRef();
    if (!spec.getScriptRef().isEmpty()) {
      b.setScript(script(spec));
    }
    if (!spec.getEnvironmentRef().isEmpty()) {
      b.addAllEnvironment(decode(files.read(spec.getEnvironmentRef())));
    }
    return b.build();
  }

  /** The job's batch script ("" for an allocation). */
  public String script(JobSpec spec) throws IOException {
    return spec.getScriptRef().isEmpty() ? spec.getScript()
        : new String(files.read(spec.getScriptRef()), StandardCharsets.UTF_8);
  }

  /**
   * Follows the references of job records as the writer applies a command (writer thread):
   * a submission and an array task split off add one, a purge takes one away.
   */
  public void applied(ClusterState before, ClusterState after, Command c) {
    switch (c) {
      case Command.SubmitJob x -> added(before, after, x.jobId());
      case Command.StartArrayTask x -> added(before, after, x.jobId());
      case Command.PurgeJob x -> {
        JobRecord gone = before.jobs().get(x.jobId());
        if (gone != null && !after.jobs().containsKey(x.jobId())) {
          synchronized (this) {
            unreferenced.addAll(count(gone.getSpec(), -1));
          }
        }
      }
      default -> { }
    }
  }

  /**
   * The files whose last reference went since the last call, to delete once that is durable
   * (writer thread, after its sync); each is deleted by {@link #deleteIfUnused}.
   */
  public List<String> takeUnreferenced() {
    synchronized (this) {
      List<String> out = List.copyOf(unreferenced);
      unreferenced.clear();
      return out;
    }
  }

  /** Deletes the file unless a job names it again or a submission holds it. */
  public synchronized void deleteIfUnused(String hash) {
    if (references.containsKey(hash) || pins.containsKey(hash)) {
      return;
    }
    try {
      files.delete(hash);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot delete job data file " + hash + " (deleted at the next start): " + e);
    }
  }

  /** How many job records name {@code hash}; for tests and checks. */
  public synchronized int references(String hash) {
    return references.getOrDefault(hash, 0);
  }

  /** Every file stored now (also cleans what a crash left); for tests and checks. */
  Set<String> storedFiles() throws IOException {
    return files.recoverAll();
  }

  private void added(ClusterState before, ClusterState after, int jobId) {
    JobRecord r = after.jobs().get(jobId);
    if (r != null && !before.jobs().containsKey(jobId)) {
      synchronized (this) {
        count(r.getSpec(), +1);
      }
    }
  }

  /** Adds {@code delta} to the spec's references; returns those that reached zero. */
  private List<String> count(JobSpec spec, int delta) {
    List<String> zero = new ArrayList<>(0);
    for (String ref : List.of(spec.getScriptRef(), spec.getEnvironmentRef())) {
      if (!ref.isEmpty() && references.merge(ref, delta, Integer::sum) <= 0) {
        references.remove(ref);
        zero.add(ref);
      }
    }
    return zero;
  }

  private String pin(byte[] content, List<String> held) throws IOException {
    String hash = JobDataFiles.hash(content);
    boolean first;
    CompletableFuture<Void> durable;
    synchronized (this) {
      Pin p = pins.get(hash);
      first = p == null;
      durable = first ? new CompletableFuture<>() : p.durable();
      pins.put(hash, new Pin(durable, first ? 1 : p.holders() + 1));
    }
    held.add(hash);
    if (first) {
      // Pinned, so not deleted meanwhile; a file already there is durable (written and synced by
      // an earlier submission, or found and synced at start).
      try {
        files.writeIfAbsent(hash, content);
        replicator.replicate(hash, content);
        durable.complete(null);
      } catch (IOException | RuntimeException e) {
        durable.completeExceptionally(e);
        throw e;
      }
    } else {
      try {
        durable.join();
      } catch (CompletionException e) {
        throw new IOException("storing job data failed: " + e.getCause().getMessage(), e.getCause());
      }
    }
    return hash;
  }

  private synchronized void unpin(String hash) {
    Pin p = pins.get(hash);
    if (p == null) {
      return;
    }
    if (p.holders() > 1) {
      pins.put(hash, new Pin(p.durable(), p.holders() - 1));
      return;
    }
    pins.remove(hash);
    if (!references.containsKey(hash)) {
      deleteIfUnused(hash); // its submission was refused: nothing names it
    }
  }

  /** An environment as stored: each "NAME=value" followed by a NUL (which no C string holds). */
  static byte[] encode(List<String> environment) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String e : environment) {
      out.writeBytes(e.getBytes(StandardCharsets.UTF_8));
      out.write(0);
    }
    return out.toByteArray();
  }

  static List<String> decode(byte[] stored) {
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < stored.length; i++) {
      if (stored[i] == 0) {
        out.add(new String(stored, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    return out;
  }
}
