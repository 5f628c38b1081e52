-- Usage rollups for sreport (org.corral.dbd.report). CPU-seconds per hour, day and month
-- (span 'h', 'd', 'm'; time_start is the period's first second), computed from corral_job by
-- slurmdbd's rollup task and replaced whole when recomputed, so a rollup done again changes nothing.

-- The CPUs a cluster has, from `since` on (slurmdbd records slurm.conf's node CPUs when it starts
-- and they differ from the last entry; Slurm's "Cluster Registered TRES" event).
CREATE TABLE corral_cluster_cpus (
  cluster VARCHAR(64) NOT NULL,
  since BIGINT NOT NULL,
  cpus BIGINT NOT NULL,
  PRIMARY KEY (cluster, since)
);

-- Where each cluster's rollups stand: hours before hour_through are rolled up (days before
-- day_through, months before month_through), from job records up to event id events_through.
CREATE TABLE corral_rollup (
  cluster VARCHAR(64) NOT NULL PRIMARY KEY,
  hour_through BIGINT NOT NULL,
  day_through BIGINT NOT NULL,
  month_through BIGINT NOT NULL,
  events_through BIGINT NOT NULL
);

CREATE TABLE corral_usage_cluster (
  cluster VARCHAR(64) NOT NULL,
  span CHAR(1) NOT NULL,
  time_start BIGINT NOT NULL,
  cpus BIGINT NOT NULL,
  alloc_secs BIGINT NOT NULL,
  down_secs BIGINT NOT NULL,
  pdown_secs BIGINT NOT NULL,
  idle_secs BIGINT NOT NULL,
  plan_secs BIGINT NOT NULL,
  over_secs BIGINT NOT NULL,
  total_secs BIGINT NOT NULL,
  PRIMARY KEY (cluster, span, time_start)
);

CREATE TABLE corral_usage_assoc (
  cluster VARCHAR(64) NOT NULL,
  span CHAR(1) NOT NULL,
  time_start BIGINT NOT NULL,
  account VARCHAR(255) NOT NULL,
  user_name VARCHAR(255) NOT NULL,
  alloc_secs BIGINT NOT NULL,
  PRIMARY KEY (cluster, span, time_start, account, user_name)
);
