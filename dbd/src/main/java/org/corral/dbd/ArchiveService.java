package org.corral.dbd;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.corral.common.SlurmError;
import org.corral.dbd.assoc.AssocService;
import org.corral.dbd.config.DbdConfig.PurgeAge;
import org.corral.dbd.storage.JobStore;
import org.corral.protocol.Peer;
import org.corral.protocol.Responses;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.ArchiveDumpRequest;
import org.corral.protocol.msg.ArchiveLoadRequest;
import org.corral.protocol.msg.ArchiveReply;
import org.corral.protocol.msg.Response;

/**
 * sacctmgr archive dump and load, for administrators only (root, SlurmUser, AdminLevel=
 * Administrator). A dump is a purge pass now, with the given Purge*After, archive flags and
 * directory, each unsaid one as slurmdbd.conf has it. A load reads an archive file a purge wrote
 * (on slurmdbd's host) and puts its records back, none twice. Errors carry the comment slurmdbd
 * gives sacctmgr ("Error with request.") and Slurm's error number.
 */
final class ArchiveService {
  private static final System.Logger LOG = System.getLogger("slurmdbd");
  private static final String DENIED = "Your user doesn't have privilege to perform this action";
  private static final String FAILED = "Error with request.";

  private final Purger purger;
  private final JobStore jobs;
  private final AssocService assoc;
  private final Path defaultDir;

  ArchiveService(Purger purger, JobStore jobs, AssocService assoc, Path defaultDir) {
    this.purger = purger;
    this.jobs = jobs;
    this.assoc = assoc;
    this.defaultDir = defaultDir;
  }

  Response dump(Peer peer, ArchiveDumpRequest r) throws SQLException {
    if (!assoc.isAdministrator(peer)) {
      return refused(peer, "archive dump");
    }
    Purger.Plan conf = purger.configured();
    Optional<PurgeAge> jobAge;
    Optional<PurgeAge> stepAge;
    try {
      jobAge = r.getPurgeJobAfter().isEmpty() ? conf.jobAge() : Optional.of(PurgeAge.parse(r.getPurgeJobAfter()));
      stepAge = r.getPurgeStepAfter().isEmpty() ? conf.stepAge() : Optional.of(PurgeAge.parse(r.getPurgeStepAfter()));
    } catch (IllegalArgumentException e) {
      return Responses.error(SlurmError.UNEXPECTED, FAILED);
    }
    // an archive flag given archives; else slurmdbd.conf's ArchiveJobs/ArchiveSteps, but only for
    // its own purge age (a PurgeJobAfter given without Jobs purges without archiving, as in Slurm)
    boolean archiveJobs = r.getJobs() || (r.getPurgeJobAfter().isEmpty() && conf.archiveJobs());
    boolean archiveSteps = r.getSteps() || (r.getPurgeStepAfter().isEmpty() && conf.archiveSteps());
    Optional<Path> dir = !r.getDirectory().isEmpty() ? Optional.of(Path.of(r.getDirectory()))
        : conf.dir().or(() -> Optional.of(defaultDir));
    Purger.Plan plan = new Purger.Plan(jobAge, archiveJobs && jobAge.isPresent(), stepAge,
        archiveSteps && stepAge.isPresent(), dir, r.getClustersList());
    if (plan.purges()) {
      for (String c : plan.clusters()) {
        if (!jobs.hasCluster(c)) {
          LOG.log(Level.ERROR, "archive dump: no cluster " + c);
          return Responses.error(SlurmError.UNEXPECTED, FAILED);
        }
      }
    }
    try {
      int purged = purger.run(plan);
      LOG.log(Level.INFO, "archive dump by uid " + peer.uid() + ": " + purged + " job records purged");
      return Response.newBuilder().setArchive(ArchiveReply.newBuilder().setJobs(purged)).build();
    } catch (IOException e) {
      LOG.log(Level.ERROR, "archive dump: " + e);
      return Responses.error(SlurmError.UNEXPECTED, FAILED);
    }
  }

  Response load(Peer peer, ArchiveLoadRequest r) throws SQLException {
    if (!assoc.isAdministrator(peer)) {
      return refused(peer, "archive load");
    }
    if (!r.getInsert().isEmpty() || r.getFile().isEmpty()) {
      // Insert=SQL is not run: every statement slurmdbd makes is its own, parameterized
      return Responses.error(SlurmError.UNEXPECTED, FAILED);
    }
    List<AcctJob> records;
    try {
      records = read(Path.of(r.getFile()));
    } catch (NoSuchFileException e) {
      return Responses.error(SlurmError.NO_SUCH_FILE, "No archive file given to recover.");
    } catch (IOException e) {
      LOG.log(Level.ERROR, "archive load: " + r.getFile() + ": " + e.getMessage());
      return Responses.error(SlurmError.BAD_ADDRESS, FAILED);
    }
    if (r.getCheckOnly()) {
      return Response.newBuilder().setArchive(ArchiveReply.newBuilder().setJobs(records.size())).build();
    }
    int restored = jobs.restore(records);
    LOG.log(Level.INFO, "archive load by uid " + peer.uid() + " of " + r.getFile() + ": " + restored
        + " of " + records.size() + " records put back");
    return Response.newBuilder().setArchive(ArchiveReply.newBuilder().setJobs(restored)).build();
  }

  private static Response refused(Peer peer, String what) {
    LOG.log(Level.WARNING, what + ": refused uid " + peer.uid() + " (not an administrator)");
    return Responses.error(SlurmError.ACCESS_DENIED, DENIED);
  }

  /** The records of an archive file; anything that is not one (garbage, a cut record) is refused whole. */
  static List<AcctJob> read(Path file) throws IOException {
    List<AcctJob> out = new ArrayList<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
      AcctJob j;
      while ((j = AcctJob.parseDelimitedFrom(in)) != null) {
        if (j.getCluster().isEmpty() || j.getJobId() == 0 || j.getSubmitTime() <= 0) {
          throw new IOException("not a Corral archive file (a record without cluster, job id or submit time)");
        }
        out.add(j);
      }
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("not a Corral archive file: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IOException("not a Corral archive file: no records");
    }
    return out;
  }
}
