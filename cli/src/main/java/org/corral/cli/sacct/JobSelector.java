package org.corral.cli.sacct;

import java.util.ArrayList;
import java.util.List;
import org.corral.common.ArrayTasks;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.AcctJob;
import org.corral.protocol.msg.AcctStep;

/**
 * One -j entry: a job ("12"), an array task ("12_3"), optionally one step ("12.batch", "12_3.0").
 * The text goes to slurmdbd as given; which lines print is decided here.
 */
record JobSelector(String text, long job, int task, Integer step) {
  static final int ANY_TASK = -1;

  /** Parses a -j list as slurm_addto_step_list does, refusing with its messages. */
  static List<JobSelector> parseList(String list) throws SacctOptions.Refused {
    List<JobSelector> out = new ArrayList<>();
    for (String word : list.split(",")) {
      if (!word.isEmpty()) {
        out.add(parse(word));
      }
    }
    return out;
  }

  static JobSelector parse(String word) throws SacctOptions.Refused {
    int dot = word.indexOf('.');
    String jobPart = dot < 0 ? word : word.substring(0, dot);
    int under = jobPart.indexOf('_');
    String idPart = under < 0 ? jobPart : jobPart.substring(0, under);
    long job;
    try {
      job = Long.parseLong(idPart);
      if (job <= 0 || job > 0xFFFFFFFFL) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new SacctOptions.Refused("sacct: fatal: Bad job/step specified: " + word);
    }
    int task = ANY_TASK;
    if (under >= 0) {
      try {
        task = Integer.parseInt(jobPart.substring(under + 1));
        if (task < 0) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new SacctOptions.Refused("sacct: fatal: Bad job array element specified: " + idPart);
      }
    }
    Integer step = null;
    if (dot >= 0) {
      try {
        step = StepIds.parse(word.substring(dot + 1));
      } catch (IllegalArgumentException e) {
        throw new SacctOptions.Refused("sacct: fatal: Bad step specified: " + jobPart);
      }
    }
    return new JobSelector(word, job, task, step);
  }

  /** Whether this entry names the job (or, through its array, one of its tasks). */
  boolean matches(AcctJob j) {
    if (task == ANY_TASK) {
      return Integer.toUnsignedLong(j.getJobId()) == job || Integer.toUnsignedLong(j.getArrayJobId()) == job;
    }
    if (Integer.toUnsignedLong(j.getArrayJobId()) != job) {
      return false;
    }
    if (!j.getArrayTasks().isEmpty()) {
      return ArrayTasks.fromString(j.getArrayTasks()).contains(task);
    }
    return j.getArrayTaskId() == task;
  }

  boolean matches(AcctStep s) {
    return step == null || step == s.getStepId();
  }
}
