-- sacctmgr's changes as Slurm's txn_table keeps them (sacctmgr show transaction): when, what kind
-- of change (Slurm's action name), who made it, what it applied to and the settings it made.
CREATE TABLE acct_txn (
  id BIGINT NOT NULL PRIMARY KEY,
  time_stamp BIGINT NOT NULL,
  action VARCHAR(64) NOT NULL,
  actor VARCHAR(128) NOT NULL,
  where_text VARCHAR(4096) NOT NULL,
  info VARCHAR(4096) NOT NULL
);

CREATE INDEX acct_txn_time ON acct_txn (time_stamp);
