package org.corral.cli.sprio;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.StringJoiner;
import org.corral.protocol.msg.JobInfo;
import org.corral.protocol.msg.PriorityFactors;
import org.corral.protocol.msg.PriorityWeights;

/**
 * One line of sprio: a pending job's factors, or (job == null) the configured weights. Weighted
 * values print as integers rounded the way C's %.0f rounds (half to even: 562.5 is 562).
 */
record PriorityRow(JobInfo job, PriorityWeights weights) {
  boolean isWeights() {
    return job == null;
  }

  private PriorityFactors f() {
    return job.getPriorityFactors();
  }

  String jobId() {
    return isWeights() ? "Weights" : Integer.toUnsignedString(job.getJobId());
  }

  String partition() {
    return isWeights() ? "" : job.getPartition();
  }

  String user() {
    return isWeights() ? "" : job.getUserName();
  }

  String priority() {
    return isWeights() ? "" : Integer.toUnsignedString(job.getPriority());
  }

  /**
   * The weighted sum before it was truncated to the integer priority, over 2^32-1 (measured:
   * 3000 + 281.25 shows as 0.00000076397555, where squeue's %p shows 3281 / 2^32).
   */
  String normPriority() {
    if (!isWeights() && job.getAdminPriority()) { // set by an administrator: sprio's %f of it
      return fixed(Integer.toUnsignedLong(job.getPriority()), 6);
    }
    return isWeights() ? "" : fixed(Math.max(0, f().getSum()) / 4294967295.0, 14);
  }

  String site() {
    return isWeights() ? "1" : Long.toString(f().getSite());
  }

  String nice() {
    return isWeights() ? "" : Integer.toString(job.getNice());
  }

  /** A factor: its weight (weights row), weighted and rounded, or normalized. */
  String factor(long weight, double value, boolean normalized) {
    if (isWeights()) {
      return Long.toString(weight);
    }
    return normalized ? fixed(value, 7) : rounded(weight * value);
  }

  String age(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getAge()), isWeights() ? 0 : f().getAge(), norm);
  }

  String assoc(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getAssoc()), isWeights() ? 0 : f().getAssoc(), norm);
  }

  String fairshare(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getFairshare()), isWeights() ? 0 : f().getFairshare(), norm);
  }

  String jobSize(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getJobSize()), isWeights() ? 0 : f().getJobSize(), norm);
  }

  String partitionFactor(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getPartition()), isWeights() ? 0 : f().getPartition(), norm);
  }

  String qos(boolean norm) {
    return factor(Integer.toUnsignedLong(weights.getQos()), isWeights() ? 0 : f().getQos(), norm);
  }

  /** TRES factors as NAME=value pairs; the weights row shows the weights, "(null)" without any. */
  String tres(boolean norm) {
    if (isWeights()) {
      StringJoiner j = new StringJoiner(",");
      weights.getTresMap().forEach((k, v) -> j.add(k + "=" + rounded(v)));
      return j.length() == 0 ? "(null)" : j.toString();
    }
    StringJoiner j = new StringJoiner(",");
    for (Map.Entry<String, Double> e : f().getTresMap().entrySet()) {
      double w = weights.getTresMap().getOrDefault(e.getKey(), 0.0);
      j.add(e.getKey() + "=" + (norm ? fixed(e.getValue(), 2) : rounded(w * e.getValue())));
    }
    return j.toString();
  }

  static String fixed(double v, int decimals) {
    return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  static String rounded(double v) {
    return new BigDecimal(v).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
  }
}
