-- Workload characterization keys (TrackWCKey; sacctmgr add user WCKeys=, show wckey): one row
-- per (cluster, name, user), its id given by slurmdbd, and the whole AcctWckey in `record`.
CREATE TABLE acct_wckey (
  id BIGINT NOT NULL PRIMARY KEY,
  cluster VARCHAR(128) NOT NULL,
  name VARCHAR(128) NOT NULL,
  user_name VARCHAR(128) NOT NULL,
  record ${blob} NOT NULL,
  UNIQUE (cluster, name, user_name)
);
