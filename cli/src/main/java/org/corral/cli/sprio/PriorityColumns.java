package org.corral.cli.sprio;

import java.util.List;
import org.corral.cli.format.Column;

/** sprio's -o letters (sprio(1)): upper case weighted, lower case normalized. */
final class PriorityColumns {
  private PriorityColumns() {}

  private static Column<PriorityRow> col(char letter, String header,
      java.util.function.Function<PriorityRow, String> value) {
    return new Column<>(letter, null, header, value);
  }

  static final List<Column<PriorityRow>> ALL = List.of(
      col('i', "JOBID", PriorityRow::jobId).uncut(),
      col('r', "PARTITION", PriorityRow::partition),
      col('u', "USER", PriorityRow::user),
      col('c', "CLUSTER", r -> "(null)"),
      col('Y', "PRIORITY", PriorityRow::priority),
      col('y', "PRIORITY", PriorityRow::normPriority),
      col('S', "SITE", PriorityRow::site),
      col('A', "AGE", r -> r.age(false)),
      col('a', "AGE", r -> r.age(true)),
      col('B', "ASSOC", r -> r.assoc(false)),
      col('b', "ASSOC", r -> r.assoc(true)),
      col('F', "FAIRSHARE", r -> r.fairshare(false)),
      col('f', "FAIRSHARE", r -> r.fairshare(true)),
      col('J', "JOBSIZE", r -> r.jobSize(false)),
      col('j', "JOBSIZE", r -> r.jobSize(true)),
      col('P', "PARTITION", r -> r.partitionFactor(false)),
      col('p', "PARTITION", r -> r.partitionFactor(true)),
      col('Q', "QOS", r -> r.qos(false)),
      col('q', "QOS", r -> r.qos(true)),
      col('N', "NICE", PriorityRow::nice),
      col('T', "TRES", r -> r.tres(false)),
      col('t', "TRES", r -> r.tres(true)));
}
