-- Job records as accounting keeps them. The row's columns are what queries select on; the
-- whole record (an AcctJob message) is in `record`. A job is known by (cluster, job id, submit
-- time), as in Slurm, so a job id used again after the controller's state was cleared is a new row.
-- ${blob} is the dialect's binary type (Database.placeholders).
CREATE TABLE corral_cluster (
  name VARCHAR(64) NOT NULL PRIMARY KEY,
  created BIGINT NOT NULL,
  stored_through BIGINT NOT NULL
);

CREATE TABLE corral_job (
  cluster VARCHAR(64) NOT NULL,
  job_id BIGINT NOT NULL,
  submit_time BIGINT NOT NULL,
  array_job_id BIGINT NOT NULL,
  array_task_id BIGINT NOT NULL,
  user_id BIGINT NOT NULL,
  account VARCHAR(255) NOT NULL,
  partition_name VARCHAR(255) NOT NULL,
  job_name VARCHAR(1024) NOT NULL,
  state INT NOT NULL,
  start_time BIGINT NOT NULL,
  end_time BIGINT NOT NULL,
  alloc_cpus BIGINT NOT NULL,
  last_event BIGINT NOT NULL,
  record ${blob} NOT NULL,
  PRIMARY KEY (cluster, job_id, submit_time)
);

CREATE INDEX corral_job_end ON corral_job (cluster, end_time);
CREATE INDEX corral_job_user ON corral_job (cluster, user_id, submit_time);
CREATE INDEX corral_job_array ON corral_job (cluster, array_job_id);
