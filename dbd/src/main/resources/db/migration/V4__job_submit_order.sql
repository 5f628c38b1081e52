-- sacct lists jobs in submission order (within a second: plain jobs, then array tasks by array
-- and index) and pages through them in that order (JobStore's cursor), so a page costs the same
-- wherever it starts.
CREATE INDEX corral_job_order ON corral_job (cluster, submit_time, array_job_id, array_task_id, job_id);
